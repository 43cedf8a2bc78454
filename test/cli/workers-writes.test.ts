// `folio start --workers 2`: writes that one process accepts must not fail because two processes
// share the database (on SQLite a transaction that read before it wrote lost to the other process's
// commit with 500 `database is locked`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project } from './helpers.js';

const WRITERS = 8;
const ROUNDS = 8;
let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
});
afterAll(() => project.remove());

describe('concurrent writes on two worker processes', () => {
  it(`${WRITERS} writers × ${ROUNDS} rounds of create, update and publish: no failures`, async () => {
    const server = spawnFolio(project, ['start', '--workers', '2', '--port', '0', '--host', '127.0.0.1']);
    try {
      const m = await server.waitFor(/Folio listening on (http:\/\/127\.0\.0\.1:\d+) with 2 workers\n/, 60_000);
      const base = m[1]!;
      const key = folio(project, ['api-token', 'create', '--name', 'writers', '--type', 'full-access']).stdout.trim();
      const send = async (method: string, path: string, data: unknown): Promise<{ status: number; body: { data?: { documentId: string } } }> => {
        const r = await fetch(base + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
        return { status: r.status, body: (await r.json()) as { data?: { documentId: string } } };
      };
      const failures: string[] = [];
      const check = (what: string, r: { status: number; body: unknown }, want: number): void => {
        if (r.status !== want) failures.push(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      };
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; i < ROUNDS; i++) {
          // each write reads before it writes (a unique check, the document's rows)
          const draft = await send('POST', '/api/articles?status=draft', { title: `w${w} r${i}` });
          check('create', draft, 201);
          const id = draft.body.data?.documentId;
          if (id) check('publish', await send('PUT', `/api/articles/${id}?status=published`, { summary: 'published' }), 200);
          check('unique create', await send('POST', '/api/tags?status=published', { label: `w${w}-r${i}` }), 201);
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      expect(failures).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
