// Finds the code under a project's src/ that Strapi would run and Folio deliberately doesn't (custom
// controllers, services, routes, middlewares, policies, lifecycle hooks, src/index, plugins), so
// start-up can say once what differs. The files Strapi's generator writes for every API — a core
// controller, service or router with nothing added — behave exactly as Folio does and are not listed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILTIN_SCHEMAS } from './builtin.js';

export interface NotRun {
  /** path relative to the project */
  readonly file: string;
  /** what Strapi would have done with it */
  readonly what: string;
}

const CODE = /\.(js|ts|mjs|cjs|jsx|tsx)$/;
const API_FOLDERS: ReadonlyMap<string, string> = new Map([
  ['controllers', 'custom controller'],
  ['services', 'custom service'],
  ['routes', 'custom routes'],
  ['middlewares', 'API middleware'],
  ['policies', 'API policy'],
]);
const FACTORY: ReadonlyMap<string, string> = new Map([
  ['controllers', 'Controller'],
  ['services', 'Service'],
  ['routes', 'Router'],
]);

function entries(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : [];
}

/** every code file under `dir`, depth first */
function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of entries(dir)) {
    const path = join(dir, e);
    if (statSync(path).isDirectory()) out.push(...codeFiles(path));
    else if (CODE.test(e)) out.push(path);
  }
  return out;
}

/**
 * true for the generated `export default factories.createCoreController('api::x.x');` (or its
 * CommonJS form) with nothing else: comments, 'use strict' and the import of the factories aside.
 */
export function isCoreFactoryFile(source: string, factory: string): boolean {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/['"]use strict['"];?/g, '')
    .replace(/import\s*\{[^}]*\}\s*from\s*['"]@strapi\/strapi['"];?/g, '')
    .replace(/const\s*\{[^}]*\}\s*=\s*require\(\s*['"]@strapi\/strapi['"]\s*\)(\.factories)?;?/g, '')
    .replace(/\s+/g, '');
  return new RegExp(`^(exportdefault|module\\.exports=)(factories\\.)?createCore${factory}\\(['"\`][^'"\`]+['"\`]\\);?$`).test(code);
}

function apiFiles(root: string, api: string): NotRun[] {
  const out: NotRun[] = [];
  const base = join(root, 'src', 'api', api);
  for (const [folder, what] of API_FOLDERS) {
    const factory = FACTORY.get(folder);
    for (const path of codeFiles(join(base, folder))) {
      if (factory && isCoreFactoryFile(readFileSync(path, 'utf8'), factory)) continue;
      out.push({ file: relative(root, path), what });
    }
  }
  for (const type of entries(join(base, 'content-types'))) {
    for (const e of entries(join(base, 'content-types', type))) {
      if (/^lifecycles\./.test(e) && CODE.test(e)) out.push({ file: relative(root, join(base, 'content-types', type, e)), what: 'lifecycle hooks' });
    }
  }
  return out;
}

function extensionFiles(root: string): NotRun[] {
  const out: NotRun[] = [];
  const known = new Set(BUILTIN_SCHEMAS.map((b) => b.uid));
  const dir = join(root, 'src', 'extensions');
  for (const plugin of entries(dir)) {
    for (const path of codeFiles(join(dir, plugin))) {
      out.push({ file: relative(root, path), what: /strapi-server\.\w+$/.test(path) ? 'plugin customisation' : 'plugin extension code' });
    }
    for (const type of entries(join(dir, plugin, 'content-types'))) {
      const schema = join(dir, plugin, 'content-types', type, 'schema.json');
      if (existsSync(schema) && !known.has(`plugin::${plugin}.${type}`)) out.push({ file: relative(root, schema), what: 'extends a type Folio does not have' });
    }
  }
  return out;
}

export function notRunFiles(root: string): NotRun[] {
  const src = join(root, 'src');
  const out: NotRun[] = [];
  for (const e of entries(src)) {
    if (/^index\./.test(e) && CODE.test(e)) out.push({ file: relative(root, join(src, e)), what: 'register/bootstrap hooks' });
  }
  for (const api of entries(join(src, 'api'))) out.push(...apiFiles(root, api));
  for (const path of codeFiles(join(src, 'middlewares'))) out.push({ file: relative(root, path), what: 'global middleware' });
  for (const path of codeFiles(join(src, 'policies'))) out.push({ file: relative(root, path), what: 'global policy' });
  out.push(...extensionFiles(root));
  // a plugin is a folder; a dotfile beside them (.gitkeep) is none
  for (const plugin of entries(join(src, 'plugins'))) {
    const path = join(src, 'plugins', plugin);
    if (!plugin.startsWith('.') && statSync(path).isDirectory()) out.push({ file: relative(root, path), what: 'local plugin' });
  }
  // the admin panel's customisation, when there is more than the generator's *.example.* files
  if (codeFiles(join(src, 'admin')).some((p) => !/\.example\.\w+$/.test(p))) out.push({ file: join('src', 'admin'), what: 'admin panel customisation (Folio has no admin panel)' });
  return out;
}

/** The start-up notice: nothing when everything under src/ is read, else one line per file. */
export function describeNotRun(files: readonly NotRun[]): string[] {
  if (files.length === 0) return [];
  return ['Not run by Folio (see README, "Bringing a Strapi project"):', ...files.map((f) => `  ${f.file}: ${f.what}`)];
}
