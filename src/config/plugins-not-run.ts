// Plugins Strapi would run and Folio doesn't. Folio serves four itself (upload, email, i18n,
// users-permissions); any other enabled in config/plugins (GraphQL, documentation, npm plugins), or
// enabled by being installed, as Strapi enables a dependency that says it is a plugin, is not run, and
// start-up says so rather than leave a client to find its routes answering 404.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObj, type Obj } from './config-files.js';

const SERVED: ReadonlySet<string> = new Set(['upload', 'email', 'i18n', 'users-permissions']);
/** installed plugins of the admin panel only: a REST client misses nothing without them */
const ADMIN_ONLY: ReadonlySet<string> = new Set(['cloud', 'color-picker']);

/** what a client of the plugin would miss, where it is known */
const MISSED: ReadonlyMap<string, string> = new Map([
  ['graphql', 'Folio serves the REST API only, so /graphql answers 404'],
  ['documentation', 'no OpenAPI documentation is served'],
]);

const missed = (name: string): string => MISSED.get(name) ?? 'its routes and settings are not served';

/** one line for each enabled plugin in config/plugins that Folio does not run */
export function pluginsNotRun(plugins: Obj): string[] {
  const out: string[] = [];
  for (const [name, entry] of Object.entries(plugins)) {
    if (SERVED.has(name) || entry === false || (isObj(entry) && entry['enabled'] === false)) continue;
    out.push(`plugins.${name} is not run by Folio: ${missed(name)} (README, "What is not run")`);
  }
  return out;
}

function readJson(file: string): Obj | null {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * The name Strapi gives an installed dependency that is a plugin, or null when it is none: its
 * package.json's `strapi.kind`/`strapi.name` where it is installed, else the names plugins are
 * published under (`@strapi/plugin-x`, `strapi-plugin-x`, `@scope/strapi-plugin-x`).
 */
function pluginName(dir: string, dep: string): string | null {
  const pkg = readJson(join(dir, 'node_modules', dep, 'package.json'));
  const strapi = pkg && isObj(pkg['strapi']) ? pkg['strapi'] : null;
  if (pkg) return strapi?.['kind'] === 'plugin' ? (typeof strapi['name'] === 'string' ? strapi['name'] : dep) : null;
  return /^@strapi\/plugin-(.+)$/.exec(dep)?.[1] ?? /^(?:@[^/]+\/)?strapi-plugin-(.+)$/.exec(dep)?.[1] ?? null;
}

/** one line for each plugin the project's package.json installs, unnamed in config/plugins, that Folio does not run */
export function installedPluginsNotRun(dir: string, plugins: Obj): string[] {
  const deps = readJson(join(dir, 'package.json'))?.['dependencies'];
  if (!isObj(deps)) return [];
  const out: string[] = [];
  for (const dep of Object.keys(deps)) {
    const name = pluginName(dir, dep);
    // one config/plugins names is said there (or turned off there)
    if (name === null || SERVED.has(name) || ADMIN_ONLY.has(name) || Object.hasOwn(plugins, name)) continue;
    out.push(`package.json: "${dep}" is a plugin Strapi runs because it is installed; Folio does not run it: ${missed(name)} (README, "What is not run")`);
  }
  return out;
}
