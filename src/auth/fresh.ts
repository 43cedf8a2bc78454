// A value derived from the database, reused while the database's change mark says nothing was
// written since it was read — by this process or, where the mark sees them, by any other. Where the
// mark sees only this process (MySQL), the value is read again on every call, so a change made by
// another process (the CLI, another server) still counts at once.
import type { Database } from '../database/dialect.js';

/**
 * The change mark a request's checks share: read once, at the start of the request, when the
 * database's mark sees every writer (on PostgreSQL each read is a round trip); null where it doesn't.
 */
export async function requestMark(database: Database): Promise<string | null> {
  return database.seesOtherWriters ? database.changeMark() : null;
}

/** `mark`: the request's mark (requestMark); undefined reads one, null means "read the value again" */
export function freshWhileUnchanged<T>(database: Database, load: () => Promise<T>): (mark?: string | null) => Promise<T> {
  let kept: { mark: string; value: Promise<T> } | null = null;
  return async (given) => {
    const mark = given === undefined ? await requestMark(database) : given;
    if (mark === null) return load();
    if (kept?.mark !== mark) {
      const value = load();
      kept = { mark, value };
      // a failed read is not kept
      value.catch(() => {
        if (kept?.value === value) kept = null;
      });
    }
    return kept.value;
  };
}
