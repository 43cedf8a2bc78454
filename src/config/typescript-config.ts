// Loads a TypeScript config file (config/*.ts) as Strapi 5 runs it, without a build step: esbuild
// strips the types (no type checking, as Strapi's own `develop` doesn't need it to load config) and
// bundles the file's relative imports into one CommonJS module, as Strapi compiles a project's config
// to CommonJS: packages are require()d from the project, so `require('lodash')`, `require.resolve()`
// and named imports from a CommonJS package (`import { parse } from 'pg-connection-string'`) work as
// they do there.
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { missingPackageError, type ImporterOf } from './missing-package.js';

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

export interface TypeScriptModule {
  /** what the file evaluates to: `default` is what it exports by default */
  readonly namespace: Record<string, unknown>;
  /** the bundled file (absolute path) that imports a package, for the message when it is missing */
  readonly importerOf: ImporterOf;
}

/** The packages each bundled file imports, from esbuild's metafile (paths relative to `projectDir`). */
function importers(inputs: Record<string, { imports: readonly { path: string; external?: boolean }[] }>, projectDir: string): ImporterOf {
  return (name) => {
    for (const [input, { imports }] of Object.entries(inputs)) if (imports.some((i) => i.external === true && i.path === name)) return resolve(projectDir, input);
    return undefined;
  };
}

/** The module a config/*.ts file evaluates to. */
export async function importTypeScript(file: string, projectDir: string): Promise<TypeScriptModule> {
  // loaded only for projects with TypeScript config: a JavaScript project's start never pays for it
  const { build } = await import('esbuild');
  // Strapi runs a TypeScript project's config compiled into dist/config/, so `path.join(__dirname, '..', '..')`
  // in its templates means the project folder: the same names mean the same places here
  const compiledDir = join(projectDir, 'dist', relative(projectDir, dirname(file)));
  const compiledFile = join(compiledDir, relative(dirname(file), file).replace(/\.ts$/, '.js'));
  const out = await build({
    entryPoints: [file],
    bundle: true,
    packages: 'external',
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    define: { __dirname: JSON.stringify(compiledDir), __filename: JSON.stringify(compiledFile) },
    metafile: true,
    absWorkingDir: projectDir,
  }).catch((e: unknown) => {
    throw syntaxError(e);
  });
  const code = out.outputFiles[0]!.text;
  const module = { exports: {} as unknown };
  const importerOf = importers(out.metafile.inputs, projectDir);
  try {
    // packages resolve from the config file's folder: the project's node_modules
    new Function('exports', 'require', 'module', code)(module.exports, createRequire(file), module);
  } catch (e) {
    throw missingPackageError(e, file, projectDir, importerOf);
  }
  const exported = module.exports;
  // `export default` compiles to a module with __esModule and `default`; `module.exports =` is the value itself
  const isNamespace = typeof exported === 'object' && exported !== null && (exported as { __esModule?: unknown }).__esModule === true;
  return { namespace: isNamespace ? (exported as Record<string, unknown>) : { default: exported }, importerOf };
}
