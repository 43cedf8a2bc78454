// Reads a project's config/<name>.{json,js,cjs,mjs,ts} the way Strapi does: a JS or TS file exports an
// object or a function of `{ env }`, and config/env/<NODE_ENV>/<name>.* is merged over it.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.js';
import { strapiEnv, type Env } from './strapi-env.js';
import { missingPackageError } from './missing-package.js';
import { importTypeScript } from './typescript-config.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// in the order a directory listing gives them: Strapi reads the first file of a name it lists
// (`plugins.js` before `plugins.json`) and leaves the others unread, with a warning
const EXTENSIONS = ['cjs', 'js', 'json', 'mjs', 'ts'] as const;

function deepMerge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObj(b) && isObj(v) ? deepMerge(b, v) : v;
  }
  return out;
}

async function evaluate(file: string, projectDir: string, env: Env): Promise<unknown> {
  if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const ts = file.endsWith('.ts') ? await importTypeScript(file, projectDir) : undefined;
  const mod = (ts?.namespace ?? (await import(pathToFileURL(file).href))) as { default?: unknown };
  let value = mod.default;
  // a CommonJS file compiled from TypeScript exports { default: … }
  if (isObj(value) && 'default' in value && Object.keys(value).length === 1) value = value['default'];
  try {
    return typeof value === 'function' ? (value as (ctx: { env: unknown }) => unknown)({ env: strapiEnv(env) }) : value;
  } catch (e) {
    // a require() inside the exported function fails only now
    throw missingPackageError(e, file, projectDir, ts?.importerOf);
  }
}

/**
 * The config files of one name, the one read first. A TypeScript project (a tsconfig.json) runs its
 * config compiled into dist/config, where a `.ts` becomes the `.js` Strapi reads: its `.ts` is read, and
 * a `.js` beside it (often a stale compiled copy) is not.
 */
function filesOf(projectDir: string, folder: string, name: string): string[] {
  const found = EXTENSIONS.map((ext) => join(folder, `${name}.${ext}`)).filter((f) => existsSync(f));
  const ts = found.find((f) => f.endsWith('.ts'));
  return ts !== undefined && existsSync(join(projectDir, 'tsconfig.json')) ? [ts, ...found.filter((f) => f !== ts)] : found;
}

async function readOne(projectDir: string, folder: string, name: string, env: Env, warnings: string[]): Promise<Obj | unknown[] | undefined> {
  const [file, ...unread] = filesOf(projectDir, folder, name);
  if (file === undefined) return undefined;
  const shown = relative(projectDir, file);
  const why = file.endsWith('.ts') && unread.length > 0 ? 'a TypeScript project runs its compiled .ts, as Strapi does' : 'one config file per name, as in Strapi';
  for (const other of unread) warnings.push(`${relative(projectDir, other)} is not read: ${shown} is (${why})`);
  let value: unknown;
  try {
    value = await evaluate(file, projectDir, env);
  } catch (e) {
    throw new ConfigError(`${shown}: ${(missingPackageError(e, file, projectDir) as Error).message.split('\n')[0]}`);
  }
  // config/middlewares is a list; every other file an object
  if (!isObj(value) && !Array.isArray(value)) throw new ConfigError(`${shown}: expected an object (or a function returning one)`);
  return value;
}

/** config/<name> merged with config/env/<nodeEnv>/<name> (a list is replaced); undefined when neither exists. */
export async function readConfigFile(dir: string, name: string, env: Env, nodeEnv: string, warnings: string[] = []): Promise<Obj | unknown[] | undefined> {
  const base = await readOne(dir, join(dir, 'config'), name, env, warnings);
  const over = await readOne(dir, join(dir, 'config', 'env', nodeEnv), name, env, warnings);
  return isObj(base) && isObj(over) ? deepMerge(base, over) : (over ?? base);
}
