// Which version of a document a read sees: its status and locale. Shared by the root query,
// filters through relations and populate, so every path applies the same rule.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { PublicationFilter, Status } from '../ast.js';
import type { Component, ContentType, Schema } from '../../schema/types.js';
import { keyLiteral } from './key-literal.js';

export interface ReadScope {
  readonly status: Status;
  /** the locale a non-localized source uses to pick a localized target's version */
  readonly locale: string;
  /** true when every localized row a read touches is in `locale` (a single-locale read of a localized type) */
  readonly fixedLocale?: boolean;
  /** the root's cohort, applied to populated targets with draft & publish as well */
  readonly publicationFilter?: PublicationFilter | null;
}

export function isContentType(s: Schema): s is ContentType {
  return (s as ContentType).modelType === 'contentType';
}

export function ref(alias: string, column: string): RawBuilder<unknown> {
  return sql.ref(`${alias}.${column}`);
}

/** status condition on rows of `type` aliased `alias` (true when the type has no draft & publish) */
export function statusCondition(type: ContentType, alias: string, status: Status | RawBuilder<unknown>): RawBuilder<SqlBool> | null {
  if (!type.draftAndPublish) return null;
  if (typeof status === 'string') {
    return status === 'published' ? sql<SqlBool>`${ref(alias, 'published_at')} is not null` : sql<SqlBool>`${ref(alias, 'published_at')} is null`;
  }
  return sql<SqlBool>`((${status} = 'published' and ${ref(alias, 'published_at')} is not null) or (${status} = 'draft' and ${ref(alias, 'published_at')} is null))`;
}

/**
 * The condition selecting the version of the target rows `t` that a link from a source row shows.
 * - target localized: same locale as the source row when the source is localized, else the
 *   link's explicit locale or the reader's locale;
 * - target with draft & publish: the reader's status; a link naming another status shows nothing.
 */
export function targetVersion(
  source: ContentType | Component,
  sourceAlias: string,
  target: ContentType,
  targetAlias: string,
  linkAlias: string,
  scope: ReadScope,
): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (target.localized) {
    if (isContentType(source) && source.localized) {
      out.push(
        scope.fixedLocale ? sql<SqlBool>`${ref(targetAlias, 'locale')} = ${keyLiteral(scope.locale)}` : sql<SqlBool>`${ref(targetAlias, 'locale')} = ${ref(sourceAlias, 'locale')}`,
      );
    } else out.push(sql<SqlBool>`${ref(targetAlias, 'locale')} = coalesce(${ref(linkAlias, 'target_locale')}, ${keyLiteral(scope.locale)})`);
  }
  if (target.draftAndPublish) {
    const st = statusCondition(target, targetAlias, scope.status);
    if (st) out.push(st);
    // a link that names its target's status (from a source without draft & publish) shows in reads of
    // that status only, as Strapi's link to that version's row: a draft never in a published read
    if (!(isContentType(source) && source.draftAndPublish)) {
      out.push(sql<SqlBool>`(${ref(linkAlias, 'target_status')} is null or ${ref(linkAlias, 'target_status')} = ${keyLiteral(scope.status)})`);
    }
  }
  return out;
}

/** The version condition for owner rows `t` read from the inverse side (rows of `self` at `selfAlias`). */
export function ownerVersion(self: ContentType | Component, selfAlias: string, owner: ContentType, ownerAlias: string, linkAlias: string, scope: ReadScope): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  // in a single-locale read the self row's locale is the read's: a constant keeps the condition
  // free of the self row, so the caller may test it as an uncorrelated subquery
  const selfLocale = scope.fixedLocale ? keyLiteral(scope.locale) : ref(selfAlias, 'locale');
  if (owner.localized) {
    // the localized documents linking a row without locales are listed in every locale version that
    // links (`author.articles`, at any depth), whatever locale the read names, as Strapi 5.54 lists them
    if (isContentType(self) && self.localized) out.push(sql<SqlBool>`${ref(ownerAlias, 'locale')} = ${selfLocale}`);
  }
  const st = statusCondition(owner, ownerAlias, scope.status);
  if (st) out.push(st);
  if (isContentType(self) && self.localized) {
    out.push(sql<SqlBool>`(${ref(linkAlias, 'target_locale')} is null or ${ref(linkAlias, 'target_locale')} = ${selfLocale})`);
  }
  if (isContentType(self) && self.draftAndPublish && !owner.draftAndPublish) {
    out.push(sql<SqlBool>`(${ref(linkAlias, 'target_status')} is null or ${ref(linkAlias, 'target_status')} = ${keyLiteral(scope.status)})`);
  }
  return out;
}

export function and(items: Expression<SqlBool>[]): RawBuilder<SqlBool> {
  if (items.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.join(items, sql` and `)})`;
}
