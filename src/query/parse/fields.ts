// `fields` → selected scalar attribute names (behaviour.md §5.4). id and documentId always come back.
import { ValidationError } from '../../errors.js';
import { linklessRelation, type Component, type ContentType } from '../../schema/types.js';
import { isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';
import { isStrapiOnlyAttribute } from './strapi-only-attributes.js';

type Schema = ContentType | Component;

/** Strapi's words for `fields` that is neither a string nor a list of them (`fields[x]=title`). */
export const INVALID_FIELDS = 'Invalid fields parameter. Expected a string or an array of strings';

export function parseFields(_ctx: ParseContext, schema: Schema, raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  let names: string[];
  // a list entry naming several attributes (`fields[0]=title,slug`): Strapi 5.54 checks each name, then
  // refuses the list as no list of names
  let listEntryWithCommas = false;
  if (typeof raw === 'string') {
    if (raw.trim() === '') throw new ValidationError('fields must name at least one attribute', { source: 'query', param: 'fields' });
    names = raw.split(',').map((s) => s.trim());
  } else if (Array.isArray(raw) && raw.every((n) => typeof n === 'string')) {
    listEntryWithCommas = raw.some((n: string) => n.includes(','));
    names = listEntryWithCommas ? (raw as string[]).flatMap((n) => n.split(',').map((s) => s.trim())) : (raw as string[]);
  } else throw new ValidationError(INVALID_FIELDS);
  if (names.length === 1 && names[0] === '*') return null;
  const out: string[] = [];
  for (const n of names) {
    // an empty name (`fields=title,`, `fields[1]=`) is an unknown one, as Strapi names it
    if (n === '') throw ValidationError.invalidKey('', null, 'query', 'fields');
    if (n === '*') return null;
    if (isPoison(n)) throw ValidationError.invalidKey(n, null, 'query', 'fields');
    if (n === 'id' || n === 'documentId') continue;
    if (scalarField(schema, n)) {
      if (!out.includes(n)) out.push(n);
      continue;
    }
    // a relation, media or component is named at its own path, one that never holds a link too
    const a = schema.attributes.get(n) ?? linklessRelation(schema, n);
    throw ValidationError.invalidKey(n, a || isStrapiOnlyAttribute(schema, n) ? n : null, 'query', 'fields');
  }
  if (listEntryWithCommas) throw new ValidationError(INVALID_FIELDS);
  return out;
}
