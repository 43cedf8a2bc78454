// A value derived from the database, reused while the database's change mark says nothing was
// written since it was read — by this process or, where the mark sees them, by any other. Where the
// mark sees only this process (MySQL), the value is read again on every call, so a change made by
// another process (the CLI, another server) still counts at once.
import type { Database } from '../database/dialect.js';

export function freshWhileUnchanged<T>(database: Database, load: () => Promise<T>): () => Promise<T> {
  let kept: { mark: string; value: Promise<T> } | null = null;
  return async () => {
    if (!database.seesOtherWriters) return load();
    const mark = await database.changeMark();
    if (kept?.mark !== mark) {
      const value = load();
      kept = { mark, value };
      // a failed read is not kept
      value.catch(() => { if (kept?.value === value) kept = null; });
    }
    return kept.value;
  };
}
