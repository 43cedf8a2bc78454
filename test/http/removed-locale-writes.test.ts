// A locale removed by the CLI while servers run: a process that still lists it refuses to write a
// version in it (the write checks the locale inside its transaction), so no version is left in a
// locale that no request can name or remove afterwards.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocaleService } from '../../src/i18n/locales.js';
import { deleteLocaleContent } from '../../src/documents/locale-content.js';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

it('a write in a locale removed meanwhile is a 400 naming the locales there are, and leaves nothing in it', async () => {
  const cli = new LocaleService(t.app.database);
  await cli.add('it');
  const doc = await writeDocument(t, 'POST', '/api/articles', { title: 'A en' });
  // the server takes the new locale at once
  expect((await t.request('PUT', `/api/articles/${doc}?locale=it`, { body: { data: { title: 'A it' } } })).status).toBe(200);
  // what `folio locales remove it --delete-documents` does, from another process
  await cli.remove('it', (tx) => deleteLocaleContent({ tx, dialect: t.app.database.dialect }, t.app.model, 'it'));
  for (const [method, path, data] of [
    ['PUT', `/api/articles/${doc}?locale=it`, { title: 'stray' }],
    ['POST', '/api/articles?locale=it', { title: 'stray' }],
    ['PUT', '/api/global?locale=it', { siteName: 'stray' }],
  ] as const) {
    const r = await t.request(method, path, { body: { data } });
    expect(r.body, `${method} ${path}`).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Locale "it" is not available. Available locales: de, en, fr', details: { source: 'query', param: 'locale' } },
    });
  }
  for (const table of ['articles', 'globals']) {
    expect(await t.app.database.db.selectFrom(table).select('id').where('locale', '=', 'it').execute(), table).toEqual([]);
  }
});
