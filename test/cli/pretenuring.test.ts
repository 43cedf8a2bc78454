// `folio start` turns off V8's allocation-site pretenuring (src/cli/pretenuring.ts): V8 then keeps no
// pretenuring statistics at all, where it otherwise reports them at its collections under load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopPretenuring } from '../../src/cli/pretenuring.js';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project } from './helpers.js';

/** what --trace-pretenuring-statistics prints at a collection that looked at allocation sites */
const STATISTICS = /pretenuring: deopt_maybe_tenured=/;

describe('allocation-site pretenuring', () => {
  let project: Project;
  let token: string;
  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
    token = folio(project, ['api-token', 'create', '--name', 'load', '--type', 'full-access']).stdout.trim();
  });
  afterAll(() => project.remove());

  /** whether V8 reported pretenuring statistics while the server answered a few thousand requests */
  async function pretenuringUnder(nodeArgs: string[]): Promise<boolean> {
    const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], {}, ['--trace-pretenuring-statistics', ...nodeArgs]);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      const since = server.stdout().length;
      const base = `http://127.0.0.1:${m[1]}/api/articles`;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      for (let i = 0; i < 25 && nodeArgs.length === 0; i++) {
        const r = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ data: { title: `article ${i}`, summary: 'words '.repeat(40) } }) });
        expect(r.status).toBe(201);
      }
      const url = `${base}?populate=*`;
      // ten at a time, so objects of requests in flight live through young-generation collections
      for (let round = 0; round < 300 && !STATISTICS.test(server.stdout().slice(since)); round++) {
        await Promise.all(Array.from({ length: 10 }, () => fetch(url, { headers }).then((r) => r.arrayBuffer())));
      }
      return STATISTICS.test(server.stdout().slice(since));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }

  it('folio start runs without it', async () => {
    expect(await pretenuringUnder([])).toBe(false);
  }, 120_000);

  it('a setting given to node is kept', async () => {
    expect(await pretenuringUnder(['--allocation-site-pretenuring'])).toBe(true);
    expect(stopPretenuring(['--allocation-site-pretenuring'])).toBe(false);
    expect(stopPretenuring(['--no-allocation-site-pretenuring'])).toBe(false);
  }, 120_000);
});
