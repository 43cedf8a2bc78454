// Removing a locale with its documents while those documents' versions in it are being written: what
// the writes add in the meantime (components, links) is deleted with the versions, never left behind
// under rows that are gone, and the removal itself doesn't fail on the writes it waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteLocaleContent } from '../../src/documents/locale-content.js';
import { LocaleService } from '../../src/i18n/locales.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function created(path: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request(path.includes('?') ? 'PUT' : 'POST', path, { body: { data } });
  expect(r.status, r.text).toBeLessThan(300);
  return r.body.data.documentId as string;
}

/** rows that hang off rows no longer there */
async function orphans(): Promise<Record<string, number>> {
  const { db } = t.app.database;
  const count = async (q: { execute(): Promise<unknown[]> }) => (await q.execute()).length;
  return {
    components: await count(
      db
        .selectFrom('articles_cmps as c')
        .select('c.id')
        .where((eb) => eb.not(eb.exists(eb.selectFrom('articles as a').select('a.id').whereRef('a.id', '=', 'c.entity_id')))),
    ),
    seos: await count(
      db
        .selectFrom('components_shared_seos as s')
        .select('s.id')
        .where((eb) => eb.not(eb.exists(eb.selectFrom('articles_cmps as c').select('c.id').whereRef('c.cmp_id', '=', 's.id').where('c.component_type', '=', 'shared.seo')))),
    ),
    tagLinks: await count(
      db
        .selectFrom('articles_tags_lnk as l')
        .select('l.id')
        .where((eb) => eb.not(eb.exists(eb.selectFrom('articles as a').select('a.id').whereRef('a.id', '=', 'l.source_id')))),
    ),
  };
}

describe('a locale removed with its documents while they are written in it', () => {
  it('leaves no component or link of a removed version behind, and succeeds (3 rounds)', async () => {
    const locales = new LocaleService(t.app.database);
    const tag = await created('/api/tags', { label: 'race tag' });
    const before = await orphans();
    for (let round = 0; round < 3; round++) {
      if (round > 0) await locales.add('fr');
      const docs = await Promise.all(Array.from({ length: 6 }, (_, i) => created('/api/articles', { title: `en ${round}-${i}` })));
      for (const d of docs) await created(`/api/articles/${d}?locale=fr`, { title: 'fr', seo: { metaTitle: 'fr seo' } });
      let writing = true;
      const writers = docs.map(async (d, i) => {
        for (let n = 0; writing; n++) {
          await t.request('PUT', `/api/articles/${d}?locale=fr&status=draft`, {
            body: { data: { title: `fr ${i}.${n}`, seo: { metaTitle: `seo ${n}` }, tags: { connect: [tag] } } },
          });
        }
      });
      await new Promise((r) => setTimeout(r, 30));
      await locales.remove('fr', (tx) => deleteLocaleContent({ tx, dialect: t.app.database.dialect }, t.app.model, 'fr'));
      writing = false;
      await Promise.all(writers);
      expect(await orphans()).toEqual(before);
      const left = await t.app.database.db.selectFrom('articles').select('id').where('locale', '=', 'fr').execute();
      expect(left).toEqual([]);
    }
  });
});
