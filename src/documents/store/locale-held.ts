// A version is written in a locale only while that locale exists: checked inside the write's
// transaction, holding the locale's row (a shared lock) until the write commits. Another process may
// still list a locale the CLI has just removed; without this its write made a version in a locale no
// longer there, which no request could name or remove afterwards. The CLI's removal deletes the
// locale's row before its versions, so it waits for such a write and then removes what it wrote.
import { sql } from 'kysely';
import { ValidationError } from '../../errors.js';
import type { Store } from './rows.js';

export async function holdLocale(s: Store, code: string): Promise<void> {
  const held = await s.tx.selectFrom('i18n_locale').select('id').where('code', '=', code).modifyEnd(sql.raw(s.dialect.sharedRowLock)).execute();
  if (held.length > 0) return;
  const codes = (await s.tx.selectFrom('i18n_locale').select('code').execute()).map((r) => String(r.code)).sort();
  throw new ValidationError(`Locale ${JSON.stringify(code)} is not available. Available locales: ${codes.join(', ')}`, { source: 'query', param: 'locale' });
}
