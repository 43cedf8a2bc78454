// `folio start` lets the old generation grow by half of what survived each full collection, where
// V8 would let it grow to four times as much, and leaves a factor given to node on the command line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundHeapGrowth } from '../../src/cli/heap-growth.js';
import { copyProject, ensureBuilt, spawnFolio, type Project } from './helpers.js';

/** V8's verbose GC trace names the factor of each new old-generation limit */
const LIMIT = /\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/;

describe('heap growth between full collections', () => {
  let project: Project;
  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
  });
  afterAll(() => project.remove());

  /** the factor of the first old-generation limit V8 sets once the server is up and has answered requests */
  async function factorUnder(nodeArgs: string[]): Promise<string> {
    const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], {}, ['--trace-gc-verbose', ...nodeArgs]);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      const since = server.stdout().length;
      const url = `http://127.0.0.1:${m[1]}/api/articles`;
      // a body of 600 KB is parsed (into V8's large-object space, which counts towards the old generation)
      // before the permission check refuses it: a full collection comes after a few hundred such
      // requests, where small requests, whose garbage dies young, took thousands or never came to one
      const body = JSON.stringify({ data: { title: 'x'.repeat(600_000) } });
      const post = () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.arrayBuffer());
      let limit: RegExpExecArray | null = null;
      for (let round = 0; round < 200 && limit === null; round++) {
        await Promise.all(Array.from({ length: 20 }, post));
        limit = LIMIT.exec(server.stdout().slice(since));
      }
      expect(limit, 'no full collection in 4,000 requests').not.toBeNull();
      return limit![1]!;
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }

  it('folio start sets a growth of 1.5 times what survived', async () => {
    expect(await factorUnder([])).toBe('1.5');
  }, 120_000);

  it('a factor given to node is kept', async () => {
    expect(await factorUnder(['--heap-growing-percent=100'])).toBe('2.0');
    expect(boundHeapGrowth(['--heap-growing-percent=100'])).toBe(false);
  }, 120_000);
});
