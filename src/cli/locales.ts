// folio locales list|add|remove
import { LocaleService } from '../i18n/locales.js';
import { withProject } from './open-project.js';
import { flag, UsageError, type Flags } from './usage.js';

export async function runLocales(dir: string, args: string[], values: Flags): Promise<number> {
  const [sub, code] = args;
  return withProject(dir, async (database, config) => {
    const locales = new LocaleService(database);
    await locales.seed(config.i18n);
    if (sub === 'list') {
      for (const l of await locales.list()) console.log(`${l.code}\t${l.name}${l.isDefault ? '\t(default)' : ''}`);
      return 0;
    }
    if (sub === 'add') {
      if (!code) throw new UsageError('locales add needs a locale code');
      const l = await locales.add(code, flag(values, 'name'), values['default'] === true);
      console.log(`Added ${l.code} (${l.name})${values['default'] ? ' as the default locale' : ''}`);
      return 0;
    }
    if (sub === 'remove') {
      if (!code) throw new UsageError('locales remove needs a locale code');
      await locales.remove(code);
      console.log(`Removed ${code}`);
      return 0;
    }
    throw new UsageError(`locales: unknown subcommand "${sub ?? ''}"`);
  });
}
