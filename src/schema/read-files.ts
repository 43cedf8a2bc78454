// Finds the schema files of a Strapi-layout project and parses them as JSON.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SchemaError } from '../errors.js';

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

function parse(root: string, path: string): Record<string, unknown> {
  const file = relative(root, path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new SchemaError(file, null, `invalid JSON (${(e as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SchemaError(file, null, 'must contain a JSON object');
  }
  return json as Record<string, unknown>;
}

export function readContentTypeFiles(root: string): RawContentTypeFile[] {
  const out: RawContentTypeFile[] = [];
  const apiDir = join(root, 'src', 'api');
  for (const api of subdirs(apiDir)) {
    for (const name of subdirs(join(apiDir, api, 'content-types'))) {
      const path = join(apiDir, api, 'content-types', name, 'schema.json');
      if (!existsSync(path)) continue;
      out.push({ file: relative(root, path), api, name, json: parse(root, path) });
    }
  }
  return out;
}

export function readComponentFiles(root: string): RawComponentFile[] {
  const out: RawComponentFile[] = [];
  const dir = join(root, 'src', 'components');
  for (const category of subdirs(dir)) {
    for (const entry of readdirSync(join(dir, category)).sort()) {
      if (!entry.endsWith('.json')) continue;
      const path = join(dir, category, entry);
      out.push({ file: relative(root, path), category, name: entry.slice(0, -5), json: parse(root, path) });
    }
  }
  return out;
}

/**
 * A project's extension of a built-in type, `src/extensions/<plugin>/content-types/<name>/schema.json`
 * (Strapi's way to add attributes to plugin::users-permissions.user), or undefined when there is none.
 */
export function readExtensionFile(root: string, plugin: string, name: string): RawFile | undefined {
  const path = join(root, 'src', 'extensions', plugin, 'content-types', name, 'schema.json');
  if (!existsSync(path)) return undefined;
  return { file: relative(root, path), json: parse(root, path) };
}
