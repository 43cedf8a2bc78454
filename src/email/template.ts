// The `<%= NAME %>` / `<%= NAME.path %>` placeholders of Strapi's email templates, read as data and
// never run: Strapi compiles them with lodash's template (which builds a function from the text)
// and guards it with a pattern check; here a template is split into text and variable references,
// so nothing in it can execute. Any other `<% … %>` form is refused.

export type TemplatePart = { readonly text: string } | { readonly name: string; readonly path: readonly string[] };

/** A template that uses something other than `<%= VARIABLE %>`; `reason` says what. */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)$/;

/**
 * Splits `src` into text and references. `allowed(name, path)` decides which references are known;
 * anything else between `<%` and `%>` is a TemplateSyntaxError.
 */
export function parseTemplate(src: string, allowed: (name: string, path: readonly string[]) => boolean): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (;;) {
    const open = src.indexOf('<%', at);
    if (open < 0) break;
    if (open > at) parts.push({ text: src.slice(at, open) });
    const close = src.indexOf('%>', open + 2);
    if (close < 0) throw new TemplateSyntaxError('a "<%" is never closed with "%>"');
    if (src[open + 2] !== '=') throw new TemplateSyntaxError(`only <%= VARIABLE %> is allowed, found ${JSON.stringify(src.slice(open, close + 2))}`);
    const inner = src.slice(open + 3, close).trim();
    const m = REFERENCE.exec(inner);
    if (!m) throw new TemplateSyntaxError(`only <%= VARIABLE %> is allowed, found ${JSON.stringify(src.slice(open, close + 2))}`);
    const name = m[1]!;
    const path = m[2] ? m[2].slice(1).split('.') : [];
    if (!allowed(name, path)) throw new TemplateSyntaxError(`unknown variable ${inner}`);
    parts.push({ name, path });
    at = close + 2;
  }
  if (at < src.length) parts.push({ text: src.slice(at) });
  return parts;
}

// own properties only: a path such as USER.constructor must not reach a prototype
function lookup(vars: Readonly<Record<string, unknown>>, name: string, path: readonly string[]): unknown {
  let v: unknown = Object.hasOwn(vars, name) ? vars[name] : undefined;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** How a value reads in a mail: absent → '' (as lodash's template prints null), objects as JSON. */
export function show(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v) ?? '';
  return String(v);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The parts joined, each reference's value passed through `encode` (escapeHtml for an HTML body). */
export function fillTemplate(parts: readonly TemplatePart[], vars: Readonly<Record<string, unknown>>, encode: (s: string) => string = (s) => s): string {
  return parts.map((p) => ('text' in p ? p.text : encode(show(lookup(vars, p.name, p.path))))).join('');
}
