// Locale codes, attribute names, type uids and statuses are written into a read's SQL text (so that
// PostgreSQL plans it for them once: query/sql/key-literal.ts); anything a literal would have to
// escape is bound instead, so no value can change the statement's meaning.
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { keyLiteral } from '../../src/query/sql/key-literal.js';

const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

function compiled(value: string): { sql: string; parameters: readonly unknown[] } {
  const c = sql`select 1 where x = ${keyLiteral(value)}`.compile(db);
  return { sql: c.sql, parameters: c.parameters };
}

describe('key literals', () => {
  it.each(['en', 'fr-CA', 'zh-Hans-CN', 'seo', 'api::article.article', 'plugin::users-permissions.user', 'published', 'es-419', 'a_b'])(
    '%s is written into the statement',
    (value) => {
      expect(compiled(value)).toEqual({ sql: `select 1 where x = '${value}'`, parameters: [] });
    },
  );

  it.each(["en'x", 'en\\x', "'; drop table articles; --", 'a b', 'é', '\u0000', 'en\n'])('%j is bound as a parameter', (value) => {
    expect(compiled(value)).toEqual({ sql: 'select 1 where x = ?', parameters: [value] });
  });
});
