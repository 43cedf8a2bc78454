// Fields of the errors the three drivers throw, read without trusting their shape: pg's `code` is
// the SQLSTATE, better-sqlite3's `code` the result code's name, mysql2's `errno` the server's number.

function field(e: unknown, key: string): unknown {
  return typeof e === 'object' && e !== null && key in e ? (e as Record<string, unknown>)[key] : undefined;
}

export const errorCode = (e: unknown): unknown => field(e, 'code');
export const errorNumber = (e: unknown): unknown => field(e, 'errno');
