// Rows from a driver's array mode made into objects of one fixed shape per column list.

export type Row = Record<string, unknown>;
export type RowBuilder = (values: unknown[]) => Row;

/**
 * Drivers build a row object key by key (better-sqlite3 through its C++ API, node-postgres by keyed
 * stores under each column's name), which costs more than the values themselves; a constructor compiled
 * once per column list makes every row of a result one object literal. A repeated column name keeps the
 * last value, as the drivers' object modes do.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  // in an object literal `"__proto__": x` would set the prototype instead of a key
  if (names.includes('__proto__')) return (values) => Object.fromEntries(names.map((n, i) => [n, values[i]]));
  const props = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  // the names come from the database's own result metadata and are JSON-quoted, never spliced raw
  return new Function('v', `return { ${props} };`) as RowBuilder;
}

/** builders by column list, so a statement run again reuses its compiled constructor */
export class RowBuilders {
  private readonly byNames = new Map<string, RowBuilder>();

  constructor(private readonly max = 1000) {}

  for(names: readonly string[]): RowBuilder {
    const key = names.join('\u0000');
    let build = this.byNames.get(key);
    if (build === undefined) {
      // result column lists come from the statements a process runs: few, but filters can make more
      if (this.byNames.size >= this.max) this.byNames.clear();
      build = rowBuilder(names);
      this.byNames.set(key, build);
    }
    return build;
  }
}
