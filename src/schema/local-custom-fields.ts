// Where a project's own code registers a custom field on the server, read from its source
// (`strapi.customFields.register({ name, plugin, type })`, in a local plugin under src/plugins or in the
// app's own register in src/index, which names it `global::<name>`): Folio runs no project code, so a
// custom field it doesn't know can only be mapped by hand (config/custom-fields), and the type the
// plugin's server code names is the one to map it to. Read only to say so when start-up refuses the
// field; the admin panel's registration (`app.customFields.register`) names its input type, not the stored one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface LocalRegistration {
  /** the stored type the registration names */
  readonly type: string;
  /** the file that registers it, relative to the project */
  readonly file: string;
}

/** folders that hold no plugin source of the project's own, or only built copies of it (and `dist*`) */
const SKIPPED = new Set(['node_modules', 'admin', 'build', '.git', '.cache']);
const SOURCE = /\.(?:[cm]?js|ts)$/;
const MAX_FILES = 3000;
const MAX_BYTES = 512 * 1024;
const REGISTER = /strapi\s*\.\s*customFields\s*\.\s*register\s*\(/g;
const quoted = (key: string): RegExp => new RegExp(`\\b${key}\\s*:\\s*['"\`]([^'"\`]+)['"\`]`);
const NAME_KEY = quoted('name');
const TYPE_KEY = quoted('type');
const PLUGIN_KEY = quoted('plugin');
/** a `plugin` key whose value isn't written out (`plugin: pluginId`, the shorthand `plugin,`) */
const PLUGIN_NAMED = /(?<!['"`])\bplugin\b\s*(?::|,|\n|$)/;

function sourceFiles(dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const entry of entries) {
    if (out.length >= MAX_FILES) return;
    const path = join(dir, entry);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      if (!SKIPPED.has(entry) && !entry.startsWith('dist')) sourceFiles(path, out);
    } else if (stat?.isFile() && SOURCE.test(entry) && !entry.endsWith('.d.ts') && stat.size <= MAX_BYTES) out.push(path);
  }
}

/**
 * Each registration in one file's text: the object literals after `strapi.customFields.register(`.
 * `folder`: the local plugin the file belongs to, if any.
 */
function registrations(text: string, folder: string | null): [id: string, type: string][] {
  const found: [string, string][] = [];
  for (const m of text.matchAll(REGISTER)) {
    // one object, or a list of them: each object's keys sit between its braces
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2000);
    const end = after.search(/\)\s*;?\s*(?:\n|$)/);
    for (const chunk of (end === -1 ? after : after.slice(0, end)).split('}')) {
      const name = NAME_KEY.exec(chunk)?.[1];
      const type = TYPE_KEY.exec(chunk)?.[1];
      // without `plugin` Strapi makes it a global field, whoever registers it (the app's register and
      // a plugin's alike); a plugin named by a variable in a local plugin's code is, in practice, that
      // plugin's own id (`plugin: pluginId`): its folder
      const plugin = PLUGIN_KEY.exec(chunk)?.[1] ?? (folder !== null && PLUGIN_NAMED.test(chunk) ? folder : undefined);
      if (name !== undefined && type !== undefined) found.push([plugin === undefined ? `global::${name}` : `plugin::${plugin}.${name}`, type]);
    }
  }
  return found;
}

/** A lookup of the custom fields the project's own code (its plugins, its src/index) registers on the server, scanned on first use. */
export function localCustomFields(root: string): (id: string) => LocalRegistration | undefined {
  let byId: Map<string, LocalRegistration> | undefined;
  return (id) => {
    if (byId === undefined) {
      byId = new Map();
      // the local plugins first, then the rest of src (the app's register and what it imports)
      const files: string[] = [];
      sourceFiles(join(root, 'src', 'plugins'), files);
      const rest: string[] = [];
      sourceFiles(join(root, 'src'), rest);
      const seen = new Set(files);
      for (const file of rest) if (!seen.has(file) && files.length < MAX_FILES) files.push(file);
      const pluginsDir = join(root, 'src', 'plugins');
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        if (!text.includes('customFields')) continue;
        const inPlugins = relative(pluginsDir, file);
        const folder = inPlugins.startsWith('..') ? null : (inPlugins.split(sep)[0] ?? null);
        for (const [found, type] of registrations(text, folder)) if (!byId.has(found)) byId.set(found, { type, file: relative(root, file) });
      }
    }
    return byId.get(id);
  };
}
