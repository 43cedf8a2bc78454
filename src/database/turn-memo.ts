// A synchronous read shared by every caller in the same turn of the event loop. SQLite's
// `PRAGMA data_version` costs ~1.8 µs (it opens a read transaction on the WAL), more than the rest of
// a cached hit's own work; requests handled in one turn were all received before it began, so a value
// read during it is as fresh as one read for each of them. The value is dropped when the turn's
// I/O is done (setImmediate runs in the check phase, after the poll phase that handled them).

export function memoForTurn<T>(read: () => T): () => T {
  let held: { readonly value: T } | undefined;
  const forget = (): void => {
    held = undefined;
  };
  return () => {
    if (held !== undefined) return held.value;
    held = { value: read() };
    setImmediate(forget);
    return held.value;
  };
}
