// An unnamed statement is parsed, analysed and planned by PostgreSQL every time it runs. Content reads
// repeat a few hundred texts (one per query shape; values are parameters), so the pipelined read
// connections run them as named prepared statements: parsed once per connection and, after a few runs,
// planned once for all values (a generic plan). The generic plan is the saving: PostgreSQL's CPU per
// request under load, cache off, unnamed → named: findOne populate=* 1.9 → 0.6 ms, list populate=*
// 4.0 → 2.7; named with a custom plan per run (plan_cache_mode=force_custom_plan) saved nothing. How
// long such a plan may live is postgres-pipeline.ts's ReadConnectionLimits.
//
// A statement binding a LIKE pattern is the exception: how many rows a pattern matches depends on
// the pattern, and a generic plan assumes a few, so `filters[categories][name][$containsi]=category`
// (every category) probed 1,900 articles one by one where a hash join reads them once — PostgreSQL's
// CPU per request under load 4.8 → 2.5 ms with a plan per value (one category: 0.5 → 1.0 ms, the
// planning; a bounded cost, where a generic plan's misjudgement grows with the tables). Patterns are
// written into the text where they can be (postgres-pattern-literal.ts), which gives each its own
// prepared statement and plan; only a pattern that can't be written in is still bound.
const PATTERN_PARAMETER = / i?like \$\d+ escape /;

/** true when the statement should be planned for its values (sent unnamed) */
export function plannedPerValue(text: string): boolean {
  return PATTERN_PARAMETER.test(text);
}

/** A name for each SQL text: the same text always gets the same name, and a name is never reused for another text. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private issued = 0;

  /** `max`: texts remembered at once; past it the map starts over and texts get fresh names */
  constructor(private readonly max: number) {}

  nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      if (this.names.size >= this.max) this.names.clear();
      name = `folio_${(++this.issued).toString(36)}`;
      this.names.set(text, name);
    }
    return name;
  }
}

/**
 * The names prepared on one connection. A backend keeps every statement prepared on it for the
 * connection's life; filters can make texts without end, so past `max` the connection is replaced.
 */
export class PreparedOnConnection {
  private readonly names = new Set<string>();

  constructor(private readonly max: number) {}

  /** false when `name` is new and the connection already holds `max` statements: it should be replaced */
  admit(name: string): boolean {
    if (this.names.has(name)) return true;
    if (this.names.size >= this.max) return false;
    this.names.add(name);
    return true;
  }
}
