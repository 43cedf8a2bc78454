// What a cached body depends on is read from the SQL its statements send: every table named after FROM
// or JOIN, however it is quoted or qualified, and each of a comma list.
import { describe, expect, it } from 'vitest';
import { isRead, tablesReadBy } from '../../src/database/table-versions.js';
import type { RootOperationNode } from 'kysely';

describe('tables a read names', () => {
  it('every table after FROM and JOIN: double-quoted, backquoted, bare, schema-qualified, in subqueries and comma lists', () => {
    const text =
      'select "a"."id" from "articles" as "a" inner join "articles_tags_lnk" as "l" on 1 left join `files` f ' +
      'where exists (select 1 from "s"."tags" where 1) and x in (select id from plain, "other" o, third)';
    expect(tablesReadBy(text)).toEqual(['articles', 'articles_tags_lnk', 'files', 'tags', 'plain', 'other', 'third']);
  });

  it('a quote doubled inside a quoted name is one quote of the name', () => {
    expect(tablesReadBy('select * from "we""ird" join `b``q` on 1')).toEqual(['we"ird', 'b`q']);
  });

  it('a column called "from" names no table', () => {
    expect(tablesReadBy('select "t"."from" from "t"')).toEqual(['t']);
  });

  it('only SELECTs (raw ones too) count as reads', () => {
    const raw = { kind: 'RawNode' } as unknown as RootOperationNode;
    expect(isRead({ kind: 'SelectQueryNode' } as unknown as RootOperationNode, 'select 1')).toBe(true);
    expect(isRead(raw, 'select name from sqlite_master')).toBe(true);
    expect(isRead(raw, '(select 1) union (select 2)')).toBe(true);
    expect(isRead(raw, 'begin immediate')).toBe(false);
    expect(isRead({ kind: 'UpdateQueryNode' } as unknown as RootOperationNode, 'update "t" set x = 1')).toBe(false);
  });
});
