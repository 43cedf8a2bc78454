import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { ValidationError } from '../../src/errors.js';
import { LocaleService } from '../../src/i18n/locales.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let testDb: TestDatabase;
let database: Database;
let locales: LocaleService;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await syncSchema(database, loadModel(EXAMPLE_DIR));
  locales = new LocaleService(database);
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

async function refused(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).message;
}

const summary = async (): Promise<string[]> => (await locales.list()).map((l) => `${l.code}${l.isDefault ? '*' : ''}`);

describe('seed', () => {
  it('fills an empty table from config, the config default marked, in the shape of GET /api/i18n/locales', async () => {
    await locales.seed({
      defaultLocale: 'fr',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'Français' },
      ],
    });
    const list = await locales.list();
    expect(list).toEqual([
      {
        id: expect.any(Number),
        documentId: expect.stringMatching(/^[a-z][a-z0-9]{23}$/),
        name: 'English (en)',
        code: 'en',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        publishedAt: expect.stringMatching(ISO),
        isDefault: false,
      },
      expect.objectContaining({ code: 'fr', name: 'Français', isDefault: true }),
    ]);
    expect(list[0]!.documentId).not.toBe(list[1]!.documentId);
    expect(await locales.defaultLocale()).toBe('fr');
    expect(locales.currentDefault()).toBe('fr');
    expect([...locales.codes()]).toEqual(['en', 'fr']);
  });

  it('leaves a table that already has locales alone', async () => {
    await locales.seed({ defaultLocale: 'de', locales: [{ code: 'de', name: 'German (de)' }] });
    expect(await summary()).toEqual(['en', 'fr*']);
  });

  it('adds the default locale when config lists locales without it', async () => {
    const other = await createTestDatabase();
    const db2 = await connect(other.config);
    try {
      await syncSchema(db2, loadModel(EXAMPLE_DIR));
      const s = new LocaleService(db2);
      await s.seed({ defaultLocale: 'es', locales: [{ code: 'it', name: 'Italiano' }] });
      expect((await s.list()).map((l) => [l.code, l.name, l.isDefault])).toEqual([
        ['es', 'Spanish (es)', true],
        ['it', 'Italiano', false],
      ]);
    } finally {
      await db2.close();
      await other.drop();
    }
  });
});

describe('add', () => {
  it('names a known language "<Language> (<code>)", an unknown one by its code', async () => {
    expect(await locales.add('pt-BR')).toMatchObject({ code: 'pt-BR', name: 'Portuguese (Brazil) (pt-BR)', isDefault: false });
    expect((await locales.add('zh-Hans')).name).toBe('Chinese (Simplified) (zh-Hans)');
    expect((await locales.add('qaa')).name).toBe('qaa');
    expect((await locales.add('nl', 'Nederlands')).name).toBe('Nederlands');
    expect(locales.codes().has('nl')).toBe(true);
  });

  it('can make the new locale the default, the old one no longer', async () => {
    expect(await locales.add('de', undefined, true)).toMatchObject({ code: 'de', isDefault: true });
    expect((await summary()).filter((c) => c.endsWith('*'))).toEqual(['de*']);
    expect(locales.currentDefault()).toBe('de');
  });

  it.each(['', 'EN', 'en_US', 'english', 'e', 'en-', 'en-a', `en-${'abcdefgh-'.repeat(4)}x1`])('refuses the code %j', async (code) => {
    expect(await refused(locales.add(code))).toBe(`Invalid locale code "${code}": expected a BCP 47 code such as en, fr or pt-BR`);
  });

  it('refuses a code it has', async () => {
    expect(await refused(locales.add('fr'))).toBe('Locale "fr" already exists');
  });
});

describe('setDefault and remove', () => {
  it('setDefault moves the default', async () => {
    await locales.setDefault('en');
    expect((await summary()).filter((c) => c.endsWith('*'))).toEqual(['en*']);
    expect(await locales.defaultLocale()).toBe('en');
    expect(await refused(locales.setDefault('xx'))).toBe('Locale "xx" does not exist');
  });

  it('remove takes a locale out of the list and the codes', async () => {
    await locales.remove('qaa');
    expect(locales.codes().has('qaa')).toBe(false);
    expect(await summary()).toEqual(['en*', 'fr', 'pt-BR', 'zh-Hans', 'nl', 'de']);
  });

  it('refuses to remove the default locale or one it does not have', async () => {
    expect(await refused(locales.remove('en'))).toBe('Cannot delete the default locale');
    expect(await refused(locales.remove('qaa'))).toBe('Locale "qaa" does not exist');
  });

  it('codes() of another service instance reflect the database once it has read it', async () => {
    const other = new LocaleService(database);
    expect(other.codes().size).toBe(0);
    await other.list();
    expect([...other.codes()].sort()).toEqual(['de', 'en', 'fr', 'nl', 'pt-BR', 'zh-Hans']);
  });
});
