// The query-string parser Strapi and its clients use, with Strapi's options (behaviour.md §2.4).
import qs from 'qs';

export function parseQueryString(raw: string): Record<string, unknown> {
  // allowPrototypes stays false: __proto__/constructor/prototype keys are dropped, never assigned
  return qs.parse(raw, { strictNullHandling: true, arrayLimit: 100, depth: 20, allowPrototypes: false }) as Record<string, unknown>;
}
