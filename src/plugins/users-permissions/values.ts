// Column values as the three drivers return them.

/** a boolean column: true, 1 or '1' (SQLite and MySQL store booleans as integers) */
export function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 1n;
}
