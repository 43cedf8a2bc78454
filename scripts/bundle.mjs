// Bundles the CLI (and so the whole server) into dist/cli/main.js, replacing tsc's entry file.
// One file instead of ~400 ES modules (kysely alone is 279) saves about a quarter of the start-up
// time, which is spent resolving and loading modules. Native and rarely used packages stay
// outside: better-sqlite3 (a .node addon), pg and mysql2 (loaded for their dialect only), sharp,
// file-type, mime-types and the S3 client (loaded on first upload).
import { build } from 'esbuild';
import { chmodSync, existsSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/cli/', import.meta.url));
await build({
  entryPoints: [`${dist}main.js`],
  outfile: `${dist}main.bundle.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // without comments the source is pure ASCII, which V8 keeps one byte per character (a two-byte
  // source string costs 5 MB of heap); identifiers stay as written, so stack traces keep their names
  minifyWhitespace: true,
  // licence comments go to a file beside the bundle (one holds a non-ASCII name)
  legalComments: 'external',
  // esbuild also loads TypeScript config files (src/config/typescript-config.ts), only for projects that have them
  external: ['better-sqlite3', 'bcrypt', 'pg', 'mysql2', 'sharp', 'file-type', 'mime-types', '@aws-sdk/*', 'pino-pretty', 'nodemailer', 'esbuild'],
  // CommonJS dependencies (fastify) call require() for Node's built-ins
  banner: { js: "import { createRequire as folioCreateRequire } from 'node:module'; const require = folioCreateRequire(import.meta.url);" },
});
renameSync(`${dist}main.bundle.js`, `${dist}main.js`);
// runnable as ./dist/cli/main.js, with the Node flags its first line gives (npm does the same for an installed bin)
chmodSync(`${dist}main.js`, 0o755);
// the image child process (src/plugins/upload/image-process.ts) is started from the file beside
// the module that forks it: in the bundle, that is dist/cli/
await build({
  entryPoints: [fileURLToPath(new URL('../dist/plugins/upload/image-worker.js', import.meta.url))],
  outfile: `${dist}image-worker.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  external: ['sharp'],
});
if (existsSync(`${dist}main.bundle.js.LEGAL.txt`)) renameSync(`${dist}main.bundle.js.LEGAL.txt`, `${dist}main.js.LEGAL.txt`);
