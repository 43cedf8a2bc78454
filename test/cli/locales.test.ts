import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, type Project } from './helpers.js';

let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
});
afterAll(() => project.remove());

const codes = (): { code: string; name: string; isDefault: boolean }[] =>
  JSON.parse(folio(project, ['locales', 'list', '--json']).stdout) as { code: string; name: string; isDefault: boolean }[];

describe('folio locales', () => {
  it('list shows the locales config/plugins.json seeds, the default marked', () => {
    const r = folio(project, ['locales', 'list']);
    expect(r.status, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s{2,}/)),
    ).toEqual([
      ['CODE', 'NAME', 'DEFAULT'],
      ['en', 'English (en)', 'yes'],
      ['fr', 'French (fr)'],
      ['de', 'German (de)'],
    ]);
  });

  it('add names a known language itself, --name overrides, --default moves the default', () => {
    const a = folio(project, ['locales', 'add', 'pt-BR']);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toContain('Added pt-BR (Portuguese (Brazil) (pt-BR))');
    expect(folio(project, ['locales', 'add', 'es', '--name', 'Español', '--default']).status).toBe(0);
    expect(codes()).toEqual([
      expect.objectContaining({ code: 'en', isDefault: false }),
      expect.objectContaining({ code: 'fr', isDefault: false }),
      expect.objectContaining({ code: 'de', isDefault: false }),
      expect.objectContaining({ code: 'pt-BR', name: 'Portuguese (Brazil) (pt-BR)', isDefault: false }),
      expect.objectContaining({ code: 'es', name: 'Español', isDefault: true }),
    ]);
  });

  it('list --json has the shape of GET /api/i18n/locales', () => {
    const en = codes()[0];
    expect(en).toEqual({
      id: expect.any(Number),
      documentId: expect.stringMatching(/^[a-z][a-z0-9]{23}$/),
      name: 'English (en)',
      code: 'en',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      publishedAt: expect.stringMatching(/Z$/),
      isDefault: false,
    });
  });

  it('refuses an existing code, a malformed code and removing the default, with one line and exit 1', () => {
    for (const [args, message] of [
      [['add', 'fr'], 'Locale "fr" already exists'],
      [['add', 'EN_us'], 'Invalid locale code "EN_us": expected a BCP 47 code such as en, fr or pt-BR'],
      [['remove', 'es'], 'Cannot delete the default locale'],
      [['remove', 'xx'], 'Locale "xx" does not exist'],
    ] as const) {
      const r = folio(project, ['locales', ...args]);
      expect(r.status, r.stdout).toBe(1);
      expect(r.stderr).toBe(`${message}\n`);
    }
  });

  it('add --default on a locale there is already makes it the default, and nothing else', () => {
    const r = folio(project, ['locales', 'add', 'fr', '--default']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Made fr (French (fr)) the default locale');
    expect(
      codes()
        .filter((l) => l.isDefault)
        .map((l) => l.code),
    ).toEqual(['fr']);
    expect(codes().map((l) => l.code)).toEqual(['en', 'fr', 'de', 'pt-BR', 'es']);
    const named = folio(project, ['locales', 'add', 'es', '--default', '--name', 'Castellano']);
    expect([named.status, named.stderr]).toEqual([1, 'Locale "es" already exists; --name only names a new one\n']);
    expect(folio(project, ['locales', 'add', 'es', '--default']).status).toBe(0);
    expect(
      codes()
        .filter((l) => l.isDefault)
        .map((l) => l.code),
    ).toEqual(['es']);
  });

  it('remove takes a locale out', () => {
    const r = folio(project, ['locales', 'remove', 'de']);
    expect(r.status, r.stderr).toBe(0);
    expect(codes().map((l) => l.code)).toEqual(['en', 'fr', 'pt-BR', 'es']);
  });

  it('usage errors exit 2', () => {
    expect(folio(project, ['locales', 'add']).status).toBe(2);
    expect(folio(project, ['locales', 'remove', 'fr', 'de']).status).toBe(2);
    expect(folio(project, ['locales', 'rename']).status).toBe(2);
    expect(folio(project, ['locales', 'list', '--default']).stderr).toContain('folio locales list does not take --default');
  });
});
