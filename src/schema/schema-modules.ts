// Schemas written as modules (`schema.ts`, `schema.js`, a component's `<name>.ts`/`.js`, exporting the
// schema object): Strapi loads a JavaScript project's `.js` and a TypeScript project's compiled `.ts`
// beside `.json` files. They run here before the model is read (reading it is synchronous); a
// `schema.json` (a component's `<name>.json`) keeps its place, as in Strapi, where the JSON file is read last.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { importTypeScript } from '../config/typescript-config.js';

export interface SchemaModule {
  /** the module's path relative to the project, for messages */
  readonly file: string;
  /** what it exports by default, or why it could not be run */
  readonly value: unknown;
  readonly failure?: string;
}

/** the module names Strapi reads, a TypeScript source standing for its compiled `.js` */
const MODULE_NAMES = ['schema.ts', 'schema.js'];

/** the folder of a content type's schema files, as the key of its module */
export const contentTypeFolder = (api: string, name: string): string => join('src', 'api', api, 'content-types', name);

/** a component's file without its extension, as the key of its module */
export const componentBase = (category: string, name: string): string => join('src', 'components', category, name);

/** a component's module: `<name>.ts` (its compiled `.js` in Strapi) or `<name>.js`, not a declaration file */
const COMPONENT_MODULE = /^(?!.*\.d\.ts$)(.+)\.(ts|js)$/;

function folders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory());
}

async function run(root: string, path: string): Promise<unknown> {
  // esbuild runs JavaScript as well (CommonJS or ESM) and, unlike import(), afresh on every load, so a
  // `folio develop` restart reads an edited module
  const ns = (await importTypeScript(path, root)).namespace;
  return 'default' in ns ? ns['default'] : ns;
}

/** Each component without a `<name>.json` whose schema is a module (a TypeScript source before a JavaScript one). */
function componentModules(root: string): [base: string, file: string][] {
  const found: [string, string][] = [];
  const dir = join(root, 'src', 'components');
  for (const category of folders(dir)) {
    const entries = readdirSync(join(dir, category)).sort();
    for (const entry of entries) {
      const m = COMPONENT_MODULE.exec(entry);
      if (!m || entries.includes(`${m[1]!}.json`)) continue;
      if (m[2] === 'js' && entries.includes(`${m[1]!}.ts`)) continue;
      found.push([componentBase(category, m[1]!), join('src', 'components', category, entry)]);
    }
  }
  return found;
}

/**
 * Each content-type folder without a schema.json whose schema is a module, and each component written
 * as a module → that module's export.
 */
export async function loadSchemaModules(root: string): Promise<ReadonlyMap<string, SchemaModule>> {
  const out = new Map<string, SchemaModule>();
  const apiDir = join(root, 'src', 'api');
  const found: [folder: string, file: string][] = [];
  for (const api of folders(apiDir)) {
    for (const name of folders(join(apiDir, api, 'content-types'))) {
      const folder = contentTypeFolder(api, name);
      if (existsSync(join(root, folder, 'schema.json'))) continue;
      const module = MODULE_NAMES.find((m) => existsSync(join(root, folder, m)));
      if (module !== undefined) found.push([folder, join(folder, module)]);
    }
  }
  found.push(...componentModules(root));
  // esbuild works on them side by side: a project of twenty such files starts in one build's time
  const loaded = await Promise.all(
    found.map(([, file]) =>
      run(root, join(root, file)).then(
        (value): SchemaModule => ({ file, value }),
        (e: unknown): SchemaModule => ({ file, value: undefined, failure: (e as Error).message }),
      ),
    ),
  );
  for (let i = 0; i < found.length; i++) out.set(found[i]![0], loaded[i]!);
  return out;
}
