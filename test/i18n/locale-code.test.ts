import { describe, expect, it } from 'vitest';
import { isLocaleCode, localeName } from '../../src/i18n/locale-code.js';

describe('locale codes', () => {
  it.each(['en', 'fr', 'haw', 'pt-BR', 'zh-Hans', 'zh-Hans-CN', 'es-419', 'sr-Latn-RS'])('%s is a code', (c) => {
    expect(isLocaleCode(c)).toBe(true);
  });

  it.each(['', 'e', 'EN', 'en_US', 'en-', 'en--US', 'english', 'en-x', 'en-toolongsub', 'en US', `en${'-abcdefgh'.repeat(4)}`])('%j is not', (c) => {
    expect(isLocaleCode(c)).toBe(false);
  });

  it('names a code the way Strapi lists it', () => {
    expect(localeName('en')).toBe('English (en)');
    expect(localeName('fr')).toBe('French (fr)');
    expect(localeName('pt-BR')).toBe('Portuguese (Brazil) (pt-BR)');
    expect(localeName('zh-Hans-CN')).toBe('Chinese (Simplified, China) (zh-Hans-CN)');
    expect(localeName('xx')).toBe('xx');
  });
});
