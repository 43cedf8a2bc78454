// A config file that needs a package the project hasn't installed: Node's own message is a page of
// require stack; the user needs the package's name, who asked for it, and the fix.
import { relative, sep } from 'node:path';

/** The package a file inside node_modules belongs to (`@scope/name` or `name`), or undefined. */
function packageOf(file: string): string | undefined {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return undefined;
  const [first, second] = file.slice(at + marker.length).split(sep);
  return first?.startsWith('@') && second ? `${first}/${second}` : first;
}

/** The missing package's name and the file that asked for it, from CommonJS's or ESM's not-found error. */
function notFound(e: Error): { name: string; importer: string | undefined } | undefined {
  const code = (e as { code?: unknown }).code;
  if (code === 'MODULE_NOT_FOUND') {
    const name = /Cannot find module '([^']+)'/.exec(e.message)?.[1];
    const stack = (e as { requireStack?: unknown }).requireStack;
    const importer = Array.isArray(stack) && typeof stack[0] === 'string' ? stack[0] : undefined;
    return name === undefined ? undefined : { name, importer };
  }
  if (code === 'ERR_MODULE_NOT_FOUND') {
    const m = /Cannot find package '([^']+)' imported from (.+)$/m.exec(e.message);
    return m ? { name: m[1]!, importer: m[2]!.trim() } : undefined;
  }
  return undefined;
}

/** Which project file a bundled TypeScript config imports a package from (typescript-config.ts). */
export type ImporterOf = (name: string) => string | undefined;

/**
 * The error to show for a config file's failure: a package missing from the project becomes one line
 * naming it — and, when something other than the config file itself needs it, what does: an installed
 * package, or a project file the config reaches through its relative imports — with the fix; any other
 * error is returned as it is.
 */
export function missingPackageError(e: unknown, configFile: string, projectDir: string, importerOf?: ImporterOf): unknown {
  if (!(e instanceof Error)) return e;
  const found = notFound(e);
  // a relative or absolute path is a file of the project's own, not a package to install
  if (found === undefined || found.name.startsWith('.') || found.name.startsWith('/')) return e;
  // a TypeScript config is one bundle of the files it imports: its metafile knows which of them asked
  const importer = found.importer !== undefined && found.importer !== configFile ? found.importer : importerOf?.(found.name);
  const via = importer === undefined ? undefined : packageOf(importer);
  const missing = `"${found.name}" is not installed in the project (npm install)`;
  const message =
    importer === undefined || importer === configFile || via === found.name
      ? `it imports "${found.name}", which is not installed in the project (npm install)`
      : via !== undefined
        ? `${missing}: the package "${via}" it loads needs it`
        : `${missing}: ${relative(projectDir, importer)}, which it loads, imports it`;
  return new Error(message, { cause: e });
}
