#!/usr/bin/env node
// The `folio` command: serve a project, manage its API tokens and locales.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { userMessage } from './report.js';
import { checkArgs, checkOptions, HELP, OPTIONS, UsageError } from './usage.js';

function version(): string {
  // dist/cli/main.js → the package's own package.json
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.version) {
    console.log(version());
    return 0;
  }
  const dir = values.dir ?? process.cwd();
  const [command, ...rest] = positionals;
  // each command loads only what it needs: token and locale commands never load the HTTP server
  switch (command) {
    case 'start':
      checkOptions(command, values);
      checkArgs(command, rest, 0);
      return (await import('./start.js')).runStart(dir, values);
    case 'develop':
      checkOptions(command, values);
      checkArgs(command, rest, 0);
      return (await import('./develop.js')).runDevelop(dir, values);
    case 'api-token':
      return (await import('./api-token.js')).runApiToken(dir, rest, values);
    case 'locales':
      return (await import('./locales.js')).runLocales(dir, rest, values);
    case 'permissions':
      return (await import('./permissions.js')).runPermissions(dir, rest, values);
    case 'users':
      return (await import('./users.js')).runUsers(dir, rest, values);
    case undefined:
      throw new UsageError('Missing command');
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

function isUsageError(e: unknown): e is Error {
  // parseArgs reports unknown options and missing values as TypeErrors with ERR_PARSE_ARGS_* codes
  return e instanceof UsageError || (e instanceof TypeError && String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'));
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (e: unknown) => {
    if (isUsageError(e)) {
      console.error(`${e.message}\n\n${HELP}`);
      process.exit(2);
    }
    console.error(userMessage(e) ?? e);
    process.exit(1);
  },
);
