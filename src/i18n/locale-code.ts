// What a locale code may look like and what it is called, shared by config validation and the
// locale service so a code accepted in config/plugins is one the service accepts too.

const CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const MAX_LENGTH = 35;

export function isLocaleCode(code: string): boolean {
  return code.length <= MAX_LENGTH && CODE.test(code);
}

// made on first use: creating it maps ≈5 MB of ICU's display-name data into the process, which a
// server that never names a locale (most starts) would otherwise keep resident
let names: Intl.DisplayNames | undefined;

// 'standard' gives "Portuguese (Brazil)" rather than "Brazilian Portuguese", the form Strapi's list uses
const displayNames = (): Intl.DisplayNames => (names ??= new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'none' }));

/** Strapi's display form, `<Language name> (<code>)`, or the bare code for a language Intl doesn't know. */
export function localeName(code: string): string {
  let name: string | undefined;
  try {
    name = displayNames().of(code);
  } catch {
    // RangeError for a code Intl can't parse as a language tag
  }
  return name ? `${name} (${code})` : code;
}
