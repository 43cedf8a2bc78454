// What the CLI prints about configuration and failures: one readable line for anything the user
// can fix (bad schema, bad config, a refused value, an unreachable database), a stack only for bugs.
import { join } from 'node:path';
import { ConfigError, FolioError, SchemaError, SchemaErrors } from '../errors.js';
import type { LoadedConfig } from '../config/load-config.js';
import { generatedNotices } from '../config/secrets.js';

/** The one-line message for an error the user can act on, or null for a defect worth a stack. */
export function userMessage(e: unknown): string | null {
  if (e instanceof FolioError) {
    // "2 errors occurred" alone tells the user nothing: name each
    const errors = e.details?.['errors'];
    const each = Array.isArray(errors) ? errors.map((x: { message?: unknown }) => `  ${String(x.message)}`) : [];
    return each.length > 1 ? [e.message, ...each].join('\n') : e.message;
  }
  if (e instanceof SchemaError || e instanceof SchemaErrors || e instanceof ConfigError) return e.message;
  if (!(e instanceof Error)) return null;
  // node-postgres refuses a server without TLS by a plain Error, no code: name the setting that asked for TLS
  if (e.message === 'The server does not support SSL connections') {
    return `PostgreSQL: ${e.message}, but ssl is on for this connection (config/database's connection.ssl, or DATABASE_SSL=true): set it to false for a server without TLS`;
  }
  // system and driver errors (ECONNREFUSED, EADDRINUSE, ER_ACCESS_DENIED_ERROR, 28P01…) carry a code;
  // Node's own ERR_* codes mean a misuse of an API, i.e. a bug here
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || code.startsWith('ERR_')) return null;
  // connecting to "localhost" tries ::1 and 127.0.0.1 and fails with an AggregateError without message
  const inner = e instanceof AggregateError ? (e.errors[0] as Error | undefined)?.message : undefined;
  return (e.message || inner || code).split('\n')[0]!;
}

/** Mentions generated secrets and ignored config files; `out` is stderr for commands whose stdout is data. */
export function announce(loaded: LoadedConfig, out: (line: string) => void): void {
  const envFile = join(loaded.config.dir, '.env');
  for (const line of generatedNotices(envFile, loaded.generated)) out(line);
  for (const w of loaded.warnings) out(w);
}
