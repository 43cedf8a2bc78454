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
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const POISON = new Set(['__proto__', 'constructor', 'prototype']);
export function isPoison(key: string): boolean {
  return POISON.has(key);
}
