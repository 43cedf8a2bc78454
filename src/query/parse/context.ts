// What a query parser needs to know besides the query: the model, the REST settings, what the
// caller may see, and the locales.
import type { Ability } from '../../auth/ability.js';
import type { RestConfig } from '../../config/types.js';
import type { Model } from '../../schema/types.js';

export interface ParseContext {
  readonly model: Model;
  readonly rest: RestConfig;
  readonly ability: Ability;
  readonly defaultLocale: string;
  readonly locales: ReadonlySet<string>;
  /** relation, component and media steps the request's filters took so far, populate's included (filters.ts) */
  readonly filterSteps: { used: number };
  /** relation, component and media steps the request's sorts took so far, populate's included (sort.ts) */
  readonly sortSteps: { used: number };
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A query value as text for a message, as String() would write it: the parser's objects have no
 * prototype (see qs.ts), so String() itself throws on them and on arrays holding them.
 */
export function textOf(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => (x === null || x === undefined ? '' : textOf(x))).join(',');
  return typeof v === 'object' && v !== null ? '[object Object]' : String(v);
}

const POISON = new Set(['__proto__', 'constructor', 'prototype']);
export function isPoison(key: string): boolean {
  return POISON.has(key);
}
