// Removing a locale that documents were written in: refused by default, nothing lost; with
// --delete-documents its versions go with it (and only they).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from './helpers.js';

let project: Project;
let key: string;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
  key = folio(project, ['api-token', 'create', '--name', 'locales', '--type', 'full-access']).stdout.trim();
});
afterAll(() => project.remove());

async function serve<T>(fn: (call: (method: string, path: string, data?: unknown) => Promise<{ status: number; body: { data: unknown } }>) => Promise<T>): Promise<T> {
  const server: Server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
  try {
    const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
    return await fn(async (method, path, data) => {
      const r = await fetch(`http://127.0.0.1:${m[1]}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: data === undefined ? undefined : JSON.stringify({ data }),
      });
      return { status: r.status, body: (r.status === 204 ? { data: null } : await r.json()) as { data: unknown } };
    });
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

type Doc = { documentId: string; locale: string };
const ids = (docs: unknown): string[] => (docs as Doc[]).map((d) => `${d.documentId}:${d.locale}`).sort();

describe('folio locales remove with documents in the locale', () => {
  it('is refused without --delete-documents, naming what the locale holds, and changes nothing', async () => {
    const made = await serve(async (call) => {
      const both = (await call('POST', '/api/articles', { title: 'Both' })).body.data as Doc;
      expect((await call('PUT', `/api/articles/${both.documentId}?locale=fr`, { title: 'Les deux' })).status).toBe(200);
      const frOnly = (await call('POST', '/api/categories?locale=fr', { name: 'Seulement' })).body.data as Doc;
      const author = (await call('POST', '/api/authors', { name: 'A', articles: { connect: [{ documentId: both.documentId, locale: 'fr' }] } })).body.data as Doc;
      return { both: both.documentId, frOnly: frOnly.documentId, author: author.documentId };
    });
    // the default locale, holding versions too, is refused for being the default before any list of them
    const en = folio(project, ['locales', 'remove', 'en']);
    expect([en.status, en.stderr]).toEqual([1, 'Cannot delete the default locale\n']);
    const r = folio(project, ['locales', 'remove', 'fr']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Locale "fr" still holds versions of 1 article, 1 category; pass --delete-documents to delete them with the locale\n');
    await serve(async (call) => {
      expect(ids((await call('GET', '/api/articles?locale=*&status=draft')).body.data)).toEqual([`${made.both}:en`, `${made.both}:fr`]);
      expect(ids((await call('GET', '/api/categories?locale=fr')).body.data)).toEqual([`${made.frOnly}:fr`]);
    });

    const d = folio(project, ['locales', 'remove', 'fr', '--delete-documents']);
    expect(d.status, d.stderr).toBe(0);
    expect(d.stdout).toContain('Removed fr and its versions of 1 article, 1 category');
    await serve(async (call) => {
      expect(ids((await call('GET', '/api/articles?locale=*&status=draft')).body.data)).toEqual([`${made.both}:en`]);
      expect(ids((await call('GET', '/api/articles?locale=*')).body.data)).toEqual([`${made.both}:en`]);
      expect((await call('GET', '/api/categories?locale=*')).body.data).toEqual([]);
      expect((await call('GET', '/api/articles?locale=fr')).status).toBe(400);
      // the en version is whole and writable
      expect((await call('PUT', `/api/articles/${made.both}`, { summary: 'still here' })).status).toBe(200);
    });
    // a new fr version starts afresh: the links the removed one held (author) are not revived
    expect(folio(project, ['locales', 'add', 'fr']).status).toBe(0);
    await serve(async (call) => {
      expect((await call('PUT', `/api/articles/${made.both}?locale=fr`, { title: 'De retour' })).status).toBe(200);
      const author = await call('GET', `/api/authors/${made.author}?locale=fr&populate=articles`);
      expect(author.body.data).toMatchObject({ documentId: made.author, articles: [] });
    });
  });

  it('a locale nothing was written in is removed without the flag', () => {
    const r = folio(project, ['locales', 'remove', 'de']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed de;');
  });
});

describe('a locale added with the CLI while the server runs', () => {
  it('is taken by ?locale= at once, as /api/i18n/locales lists it', async () => {
    await serve(async (call) => {
      const before = await call('GET', '/api/articles?locale=it');
      expect(before.body).toMatchObject({ error: { status: 400, message: expect.stringMatching(/^Locale "it" is not available/) } });
      expect(folio(project, ['locales', 'add', 'it']).status).toBe(0);
      const made = await call('POST', '/api/articles?locale=it', { title: 'Ciao' });
      expect(made.status).toBe(201);
      expect(made.body.data).toMatchObject({ locale: 'it', title: 'Ciao' });
      expect((await call('GET', '/api/articles?locale=it&status=draft')).body.data).toEqual([expect.objectContaining({ title: 'Ciao' })]);
    });
  });
});
