// A GET query of a content type → FindQuery, every part checked against the model, in Strapi's
// order (publicationFilter, filters, sort, fields, populate, then pagination).
import { parseSearch } from './search.js';
import { ValidationError } from '../../errors.js';
import { PUBLICATION_FILTERS, type FindQuery, type PublicationFilter, type Status } from '../ast.js';
import type { ContentType } from '../../schema/types.js';
import type { ParseContext } from './context.js';
import { parseFields } from './fields.js';
import { parseFilters } from './filters.js';
import { filtersChooseLocale } from './locale-filter.js';
import { parsePagination } from './pagination.js';
import { parsePopulate } from './populate.js';
import { parseSort } from './sort.js';

export type { ParseContext } from './context.js';

const ALLOWED = new Set([
  'filters',
  'sort',
  'fields',
  'populate',
  'status',
  'locale',
  'page',
  'pageSize',
  'start',
  'limit',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  'pagination',
  'count',
  'ordering',
]);

function status(raw: unknown): Status {
  if (raw === undefined) return 'published';
  if (raw === 'published' || raw === 'draft') return raw;
  throw new ValidationError(`Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${typeof raw === 'string' ? raw : JSON.stringify(raw)}`, {
    source: 'query',
    param: 'status',
  });
}

function publicationFilter(type: ContentType, query: Record<string, unknown>): PublicationFilter | null {
  const raw = query['publicationFilter'];
  if (raw !== undefined && !PUBLICATION_FILTERS.includes(raw as PublicationFilter)) {
    throw new ValidationError(`Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}.`, { source: 'query', param: 'publicationFilter' });
  }
  // the deprecated boolean is checked whatever else the query says, on every type, as Strapi 5.54 parses it
  const legacy = query['hasPublishedVersion'];
  let mapped: PublicationFilter | null = null;
  if (legacy === 'true' || legacy === true) mapped = 'has-published-version-document';
  else if (legacy === 'false' || legacy === false) mapped = 'never-published-document';
  else if (legacy !== undefined && legacy !== null) throw new ValidationError("Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.");
  // kept on a type without draft & publish too: it has no effect on the root (find.ts checks the type),
  // but Strapi 5.54 applies it to the populated relations that have draft & publish
  if (raw !== undefined) return raw as PublicationFilter;
  return mapped;
}

function checkLocale(ctx: ParseContext, code: unknown): string {
  if (typeof code !== 'string' || !ctx.locales.has(code)) {
    throw new ValidationError(`Locale ${JSON.stringify(code)} is not available. Available locales: ${[...ctx.locales].sort().join(', ')}`, { source: 'query', param: 'locale' });
  }
  return code;
}

const absentLocale = (raw: unknown): boolean => raw === undefined || raw === null || raw === '';

export function parseLocale(ctx: ParseContext, type: ContentType, raw: unknown): string | readonly string[] | null {
  // a non-localized type keeps one named locale: it picks the version of localized types it links to
  if (!type.localized) return typeof raw === 'string' && raw !== '' && raw !== '*' ? checkLocale(ctx, raw) : null;
  if (absentLocale(raw)) return ctx.defaultLocale;
  if (raw === '*') return '*';
  if (Array.isArray(raw)) {
    if (raw.includes('*')) throw new ValidationError('Locale "*" (every locale) can\'t be listed with other locales', { source: 'query', param: 'locale' });
    return raw.map((c) => checkLocale(ctx, c));
  }
  return checkLocale(ctx, raw);
}

export function parseFindQuery(ctx: ParseContext, type: ContentType, query: Record<string, unknown>): FindQuery {
  if (ctx.rest.strictParams) {
    for (const k of Object.keys(query)) {
      if (!ALLOWED.has(k)) throw new ValidationError(`Invalid key ${k}`, { key: k, path: null, source: 'query', param: k });
    }
  }
  const pf = publicationFilter(type, query);
  const where = parseFilters(ctx, type, query['filters']);
  const sort = parseSort(ctx, type, query['sort']);
  const fields = parseFields(ctx, type, query['fields']);
  const populate = parsePopulate(ctx, type, query['populate']);
  const pagination = parsePagination(ctx.rest, query);
  const locale = parseLocale(ctx, type, query['locale']);
  return {
    where,
    sort,
    fields,
    populate,
    pagination,
    status: status(query['status']),
    locale: filtersChooseLocale(type, query['filters']) ? '*' : locale,
    publicationFilter: pf,
    search: parseSearch(query['_q']),
  };
}
