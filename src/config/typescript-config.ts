// Loads a TypeScript config file (config/*.ts) as Strapi 5 runs it, without a build step: esbuild
// strips the types (no type checking, as Strapi's own `develop` doesn't need it to load config) and
// bundles the file's relative imports; packages stay outside and are imported from the project.
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/**
 * Packages the config imports are resolved from the config file's own folder (the project's
 * node_modules), then imported by absolute URL: the compiled module runs from a data: URL, which
 * can't resolve a bare name itself.
 */
function projectPackages(file: string): Plugin {
  const require = createRequire(file);
  return {
    name: 'folio-project-packages',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        try {
          const resolved = require.resolve(args.path);
          // a package's JSON file is read into the bundle, as the require() of Strapi's compiled config
          // reads it (an ESM import of JSON needs an import attribute the project's source doesn't write)
          if (resolved.endsWith('.json')) return { path: resolved };
          return { path: pathToFileURL(resolved).href, external: true };
        } catch {
          // left as written, so the import fails naming the package the project lacks
          return { path: args.path, external: true };
        }
      });
    },
  };
}

interface EsbuildMessage {
  readonly text: string;
  readonly location: { readonly line: number; readonly column: number } | null;
}

/** esbuild's failure says "Build failed with 1 error:" first; the user needs where and what */
function syntaxError(e: unknown): unknown {
  const first = (e as { errors?: readonly EsbuildMessage[] }).errors?.[0];
  if (!first) return e;
  const where = first.location ? `line ${first.location.line}, column ${first.location.column + 1}: ` : '';
  return new Error(`${where}${first.text}`, { cause: e });
}

/** The module a config/*.ts file evaluates to (its namespace: `default` is what it exports by default). */
export async function importTypeScript(file: string, projectDir: string): Promise<Record<string, unknown>> {
  // loaded only for projects with TypeScript config: a JavaScript project's start never pays for it
  const { build } = await import('esbuild');
  // Strapi runs a TypeScript project's config compiled into dist/config/, so `path.join(__dirname, '..', '..')`
  // in its templates means the project folder: the same names mean the same places here
  const compiledDir = join(projectDir, 'dist', relative(projectDir, dirname(file)));
  const compiledFile = join(compiledDir, relative(dirname(file), file).replace(/\.ts$/, '.js'));
  const out = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    define: { __dirname: JSON.stringify(compiledDir), __filename: JSON.stringify(compiledFile) },
    plugins: [projectPackages(file)],
  }).catch((e: unknown) => {
    throw syntaxError(e);
  });
  const code = out.outputFiles[0]!.text;
  try {
    return (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<string, unknown>;
  } catch (e) {
    throw fromDataUrl(e, relative(projectDir, file));
  }
}

/**
 * Node names the module an error happened in by its URL, here the whole compiled file as base64 (a
 * package the project hasn't installed made a 7 KB line): the file's own name says it, with the fix.
 */
function fromDataUrl(e: unknown, file: string): unknown {
  if (!(e instanceof Error) || !e.message.includes('data:text/javascript')) return e;
  const message = e.message.replace(/"?data:text\/javascript;base64,[A-Za-z0-9+/=]*"?/g, file);
  const missing = /Failed to resolve module specifier "([^"]+)"/.exec(e.message);
  // callers prefix the file's name
  return new Error(missing ? `it imports "${missing[1]}", which is not installed in the project (npm install)` : message, { cause: e });
}
