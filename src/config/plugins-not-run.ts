// config/plugins names plugins by key. Folio serves four of them itself (upload, email, i18n,
// users-permissions); any other enabled plugin (GraphQL, documentation, npm plugins) is not run, and
// start-up says so rather than leave a client to find its routes answering 404.
import { isObj, type Obj } from './config-files.js';

const SERVED: ReadonlySet<string> = new Set(['upload', 'email', 'i18n', 'users-permissions']);

/** what a client of the plugin would miss, where it is known */
const MISSED: ReadonlyMap<string, string> = new Map([
  ['graphql', 'Folio serves the REST API only, so /graphql answers 404'],
  ['documentation', 'no OpenAPI documentation is served'],
]);

/** one line for each enabled plugin in config/plugins that Folio does not run */
export function pluginsNotRun(plugins: Obj): string[] {
  const out: string[] = [];
  for (const [name, entry] of Object.entries(plugins)) {
    if (SERVED.has(name) || entry === false || (isObj(entry) && entry['enabled'] === false)) continue;
    const missed = MISSED.get(name) ?? 'its routes and settings are not served';
    out.push(`plugins.${name} is not run by Folio: ${missed} (README, "What is not run")`);
  }
  return out;
}
