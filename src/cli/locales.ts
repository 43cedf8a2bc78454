// folio locales list|add|remove
import { LocaleService } from '../i18n/locales.js';
import { ValidationError } from '../errors.js';
import { contentInLocale, deleteLocaleContent } from '../documents/locale-content.js';
import { withProject } from './open-project.js';
import { table } from './table.js';
import { checkArgs, checkOptions, flag, UsageError, type Flags } from './usage.js';

// the server keeps the locale list in memory (it is checked on every request): a new locale is read
// when a request names it; a removal or a new default once the list is read again
const TAKEN = 'a running server takes it at once';
const REREAD = 'each running server takes it after its next start or GET /api/i18n/locales (restart them all)';

export async function runLocales(dir: string, args: readonly string[], values: Flags): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'list' && sub !== 'add' && sub !== 'remove') throw new UsageError(sub ? `locales: unknown subcommand "${sub}"` : 'locales needs a subcommand: list, add or remove');
  checkOptions(`locales ${sub}`, values);
  checkArgs(`locales ${sub}`, rest, sub === 'list' ? 0 : 1);
  const code = rest[0];
  if (sub !== 'list' && !code) throw new UsageError(`locales ${sub} needs a locale code, e.g. fr or pt-BR`);
  return withProject(dir, async (database, config, model) => {
    const locales = new LocaleService(database);
    // the same first-start locales the server would create, so a fresh project lists them too
    await locales.seed(config.i18n);
    if (sub === 'list') {
      const list = await locales.list();
      if (values.json) console.log(JSON.stringify(list));
      else
        console.log(
          table(
            ['CODE', 'NAME', 'DEFAULT'],
            list.map((l) => [l.code, l.name, l.isDefault ? 'yes' : '']),
          ),
        );
      return 0;
    }
    if (sub === 'add') {
      // --default on a locale there is already makes it the default: no other command does
      if (values.default === true && (await locales.list()).some((l) => l.code === code)) {
        if (flag(values, 'name') !== undefined) throw new ValidationError(`Locale "${code}" already exists; --name only names a new one`);
        const l = await locales.makeDefault(code!);
        console.log(`Made ${l.code} (${l.name}) the default locale; ${REREAD}`);
        return 0;
      }
      const l = await locales.add(code!, flag(values, 'name'), values.default === true);
      console.log(`Added ${l.code} (${l.name})${l.isDefault ? ` as the default locale; ${REREAD}` : `; ${TAKEN}`}`);
      return 0;
    }
    // whether it may go at all comes before the list of documents: deleting them would not make it allowed
    await locales.removable(code!);
    const held = await contentInLocale(database.db, model, code!);
    const summary = held.map((c) => `${c.documents} ${c.documents === 1 ? c.type.singularName : c.type.pluralName}`).join(', ');
    if (held.length > 0 && values['delete-documents'] !== true) {
      throw new ValidationError(`Locale "${code}" still holds versions of ${summary}; pass --delete-documents to delete them with the locale`);
    }
    await locales.remove(code!, (tx) => deleteLocaleContent({ tx, dialect: database.dialect }, model, code!));
    console.log(`Removed ${code}${held.length ? ` and its versions of ${summary}` : ''}; ${REREAD}`);
    return 0;
  });
}
