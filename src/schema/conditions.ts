// Strapi 5's conditional fields: `"conditions": { "visible": <JSON Logic rule> }` on an attribute.
// The rule is read against the values of the object holding the attribute (the document, or the
// component item); when it is false the field is hidden in the admin panel, and Strapi's validator
// skips the field's rules (required, unique, formats). Its value is still stored and returned.
import jsonLogic, { type RulesLogic } from 'json-logic-js';
import { SchemaError } from '../errors.js';

/** A checked JSON Logic rule, kept as the plain JSON the schema file holds. */
export type VisibleRule = RulesLogic;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The attribute's `conditions.visible` rule, or undefined; a rule json-logic can't run is a schema problem. */
export function visibleRule(def: Record<string, unknown>, file: string, name: string): VisibleRule | undefined {
  const conditions = def['conditions'];
  if (conditions === undefined || conditions === null) return undefined;
  if (!isObj(conditions)) throw new SchemaError(file, name, '"conditions" must be an object');
  const rule = conditions['visible'];
  if (rule === undefined || rule === null) return undefined;
  if (!isObj(rule) || !jsonLogic.is_logic(rule))
    throw new SchemaError(file, name, '"conditions.visible" must be a JSON Logic rule (an object such as {"==": [{"var": "kind"}, "video"]})');
  try {
    // an unknown operation only shows when the rule runs: run it once now, on no values
    jsonLogic.apply(rule, {});
  } catch (e) {
    throw new SchemaError(file, name, `"conditions.visible" can't be evaluated: ${e instanceof Error ? e.message : String(e)}`);
  }
  return rule;
}

/** Whether an attribute's rules apply to `values` (the object holding it): no rule, or a rule that holds. */
export function isVisible(a: { readonly visible?: VisibleRule }, values: Readonly<Record<string, unknown>>): boolean {
  if (a.visible === undefined) return true;
  // JavaScript truthiness of the result, as Strapi's validator tests it (not json-logic's, where [] is false)
  return Boolean(jsonLogic.apply(a.visible, values));
}
