// Finds the schema files of a Strapi-layout project and parses them as JSON.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SchemaError } from '../errors.js';
import type { SchemaProblems } from './problems.js';
import { componentBase, contentTypeFolder, type SchemaModule } from './schema-modules.js';

export interface RawFile {
  /** path relative to the project, for messages */
  readonly file: string;
  readonly json: Record<string, unknown>;
}

export interface RawContentTypeFile extends RawFile {
  readonly api: string;
  readonly name: string;
}

export interface RawComponentFile extends RawFile {
  readonly category: string;
  readonly name: string;
}

function subdirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => statSync(join(dir, d)).isDirectory())
    .sort();
}

/** The file's JSON object, or undefined when it isn't one (the problem is recorded against `uid`). */
function parse(root: string, path: string, uid: string, problems: SchemaProblems): Record<string, unknown> | undefined {
  const file = relative(root, path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    json = new SchemaError(file, null, `invalid JSON (${(e as Error).message})`);
  }
  if (!(json instanceof SchemaError) && (typeof json !== 'object' || json === null || Array.isArray(json))) json = new SchemaError(file, null, 'must contain a JSON object');
  if (json instanceof SchemaError) {
    problems.add(json);
    problems.markSchema(uid);
    return undefined;
  }
  return json as Record<string, unknown>;
}

/** A schema module's export as a schema object, or undefined when it isn't one (the problem is recorded). */
function moduleSchema(m: SchemaModule, uid: string, problems: SchemaProblems): Record<string, unknown> | undefined {
  const v = m.value;
  const problem =
    m.failure !== undefined
      ? `could not be run (${m.failure})`
      : typeof v !== 'object' || v === null || Array.isArray(v)
        ? 'must export the schema object (export default { kind, info, attributes, … })'
        : undefined;
  if (problem === undefined) return v as Record<string, unknown>;
  problems.add(new SchemaError(m.file, null, problem));
  problems.markSchema(uid);
  return undefined;
}

/**
 * `modules`: the schemas written as modules (schema-modules.ts), by folder; a folder with no schema at
 * all is named in `notices` (Strapi refuses to start with "Could not load content type")
 */
export function readContentTypeFiles(root: string, problems: SchemaProblems, modules?: ReadonlyMap<string, SchemaModule>, notices?: string[]): RawContentTypeFile[] {
  const out: RawContentTypeFile[] = [];
  const apiDir = join(root, 'src', 'api');
  for (const api of subdirs(apiDir)) {
    for (const name of subdirs(join(apiDir, api, 'content-types'))) {
      const uid = `api::${api}.${name}`;
      const path = join(apiDir, api, 'content-types', name, 'schema.json');
      if (!existsSync(path)) {
        const folder = contentTypeFolder(api, name);
        const m = modules?.get(folder);
        const json = m && moduleSchema(m, uid, problems);
        if (m && json) out.push({ file: m.file, api, name, json });
        if (!m) notices?.push(`${folder}: no schema.json (nor schema.ts/.js), so no content type ${uid}; Strapi would not start`);
        continue;
      }
      const json = parse(root, path, uid, problems);
      if (json) out.push({ file: relative(root, path), api, name, json });
    }
  }
  return out;
}

/** `modules`: the components written as modules (schema-modules.ts), by their file without its extension */
export function readComponentFiles(root: string, problems: SchemaProblems, modules?: ReadonlyMap<string, SchemaModule>): RawComponentFile[] {
  const out: RawComponentFile[] = [];
  const dir = join(root, 'src', 'components');
  for (const category of subdirs(dir)) {
    const names = new Set<string>();
    for (const entry of readdirSync(join(dir, category))) {
      const name = entry.replace(/\.(json|ts|js)$/, '');
      if (entry.endsWith('.json') || modules?.has(componentBase(category, name))) names.add(name);
    }
    for (const name of [...names].sort()) {
      const uid = `${category}.${name}`;
      const m = modules?.get(componentBase(category, name));
      if (m) {
        const json = moduleSchema(m, uid, problems);
        if (json) out.push({ file: m.file, category, name, json });
        continue;
      }
      const path = join(dir, category, `${name}.json`);
      const json = parse(root, path, uid, problems);
      if (json) out.push({ file: relative(root, path), category, name, json });
    }
  }
  return out;
}

/** the file a project extends a built-in type with, whether or not it exists */
export function extensionPath(plugin: string, name: string): string {
  return join('src', 'extensions', plugin, 'content-types', name, 'schema.json');
}

/**
 * A project's extension of a built-in type, `src/extensions/<plugin>/content-types/<name>/schema.json`
 * (Strapi's way to add attributes to plugin::users-permissions.user), or undefined when there is none
 * or it can't be read (then the problem is recorded).
 */
export function readExtensionFile(root: string, plugin: string, name: string, problems: SchemaProblems): RawFile | undefined {
  const path = join(root, extensionPath(plugin, name));
  if (!existsSync(path)) return undefined;
  const json = parse(root, path, `plugin::${plugin}.${name}`, problems);
  return json && { file: relative(root, path), json };
}
