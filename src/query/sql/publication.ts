// The publicationFilter cohorts: which documents a read keeps, judged by the relation between a
// row and the other-status rows of its document (in the same locale, or in any for `-document`).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { PublicationFilter, Status } from '../ast.js';
import type { ContentType } from '../../schema/types.js';
import { and, ref } from './scope.js';

function sameDocument(type: ContentType, a: string, b: string, sameLocale: boolean): RawBuilder<SqlBool> {
  const conds = [sql<SqlBool>`${ref(b, 'document_id')} = ${ref(a, 'document_id')}`];
  if (sameLocale && type.localized) conds.push(sql<SqlBool>`${ref(b, 'locale')} = ${ref(a, 'locale')}`);
  return and(conds);
}

export function publicationCondition(type: ContentType, alias: string, f: PublicationFilter, status: Status): Expression<SqlBool> {
  const o = `${alias}_pf`;
  const T = sql.table(type.table);
  const other = (sameLocale: boolean, extra?: RawBuilder<SqlBool>): RawBuilder<SqlBool> => {
    const conds = [
      sameDocument(type, alias, o, sameLocale),
      status === 'draft' ? sql<SqlBool>`${ref(o, 'published_at')} is not null` : sql<SqlBool>`${ref(o, 'published_at')} is null`,
    ];
    if (extra) conds.push(extra);
    return sql<SqlBool>`exists (select 1 from ${T} as ${sql.id(o)} where ${and(conds)})`;
  };
  const none = sql<SqlBool>`1 = 0`;
  // the draft's updatedAt against the published row's
  const draftNewer = status === 'draft' ? sql<SqlBool>`${ref(alias, 'updated_at')} > ${ref(o, 'updated_at')}` : sql<SqlBool>`${ref(o, 'updated_at')} > ${ref(alias, 'updated_at')}`;
  const draftNotNewer =
    status === 'draft' ? sql<SqlBool>`${ref(alias, 'updated_at')} <= ${ref(o, 'updated_at')}` : sql<SqlBool>`${ref(o, 'updated_at')} <= ${ref(alias, 'updated_at')}`;
  switch (f) {
    case 'never-published':
      return status === 'draft' ? sql<SqlBool>`not ${other(true)}` : none;
    case 'never-published-document':
      return status === 'draft' ? sql<SqlBool>`not ${other(false)}` : none;
    case 'has-published-version':
      return other(true);
    case 'has-published-version-document':
      return other(false);
    case 'modified':
      return other(true, draftNewer);
    case 'unmodified':
      return other(true, draftNotNewer);
    case 'published-without-draft':
      return status === 'published' ? sql<SqlBool>`not ${other(true)}` : none;
    case 'published-with-draft':
      return status === 'published' ? other(true) : none;
  }
}
