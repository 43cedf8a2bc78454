#!/usr/bin/env node
// The `folio` command: serve a project, manage API tokens and locales.
import { parseArgs } from 'node:util';
import { ConfigError, FolioError, SchemaError } from '../errors.js';
import { runStart } from './start.js';
import { runApiToken } from './api-token.js';
import { runLocales } from './locales.js';
import { UsageError } from './usage.js';

const HELP = `Usage: folio <command> [options]

Commands:
  start [--port N] [--host H] [--workers N]   serve the project
  develop                                       serve and restart when schema files change
  api-token create --name N --type read-only|full-access|custom [--permissions a,b] [--lifespan DAYS] [--description D] [--json]
  api-token list [--json]
  api-token revoke NAME|ID
  locales list | add CODE [--name NAME] [--default] | remove CODE

Options:
  --dir PATH    the project folder (default: the current folder)
  --help, --version`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      dir: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, workers: { type: 'string' },
      name: { type: 'string' }, type: { type: 'string' }, permissions: { type: 'string' }, lifespan: { type: 'string' },
      description: { type: 'string' }, json: { type: 'boolean' }, default: { type: 'boolean' },
      help: { type: 'boolean' }, version: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.version) {
    const { createRequire } = await import('node:module');
    console.log((createRequire(import.meta.url)('../../package.json') as { version: string }).version);
    return 0;
  }
  const dir = values.dir ?? process.cwd();
  const [command, ...rest] = positionals;
  switch (command) {
    case 'start': return runStart(dir, values, false);
    case 'develop': return runStart(dir, values, true);
    case 'api-token': return runApiToken(dir, rest, values);
    case 'locales': return runLocales(dir, rest, values);
    default: throw new UsageError(command ? `Unknown command "${command}"` : 'Missing command');
  }
}

main(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exit(code);
}).catch((e: unknown) => {
  if (e instanceof UsageError || (e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (e instanceof SchemaError || e instanceof ConfigError || e instanceof FolioError) {
    console.error(`Error: ${e.message}`);
    process.exit(1);
  }
  console.error(e);
  process.exit(1);
});
