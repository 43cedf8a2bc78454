// The SQL compilers trust the parser to hand them only relations and components to walk through.
// A node that breaks that promise is refused as the parser would refuse it (400 Invalid key naming
// the attribute), never a plain Error that the HTTP layer answers with a 500.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import type { SortItem, Where } from '../../src/query/ast.js';
import { orderTerms } from '../../src/query/sql/find.js';
import { aliasCounter, compileWhere, type WhereContext } from '../../src/query/sql/where.js';
import { sqliteDialect } from '../../src/database/dialects/sqlite.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';

const model = loadModel(EXAMPLE_DIR);
const article = model.contentTypes.get('api::article.article')!;
const ctx = (): WhereContext => ({ model, dialect: sqliteDialect, scope: { status: 'published', locale: 'en' }, next: aliasCounter() });
const inner: Where = { kind: 'compare', field: { column: 'id', valueType: 'integer' }, op: '$eq', value: 1 };

function refusal(f: () => unknown): ValidationError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return e as ValidationError;
  }
  throw new Error('expected a refusal');
}

describe('compileWhere', () => {
  it.each([
    ['a relation node naming a scalar', { kind: 'relation', attribute: 'title', owner: article.uid, where: inner }],
    ['a relation node naming a component', { kind: 'relation', attribute: 'seo', owner: article.uid, where: inner }],
    ['a relation node naming nothing', { kind: 'relation', attribute: 'toString', owner: article.uid, where: inner }],
    ['a component node naming a relation', { kind: 'component', attribute: 'author', owner: article.uid, where: inner }],
    ['a component node naming nothing', { kind: 'component', attribute: 'nope', owner: article.uid, where: inner }],
  ] as [string, Where][])('%s is a 400 naming the attribute', (_name, w) => {
    const e = refusal(() => compileWhere(ctx(), article, 'r', w));
    const attribute = (w as { attribute: string }).attribute;
    expect(e.status).toBe(400);
    expect(e.message).toBe(`Invalid key ${attribute}`);
    expect(e.details).toEqual({ key: attribute, path: attribute, source: 'query', param: 'filters' });
  });
});

describe('orderTerms', () => {
  it.each([
    ['a scalar', ['title']],
    ['a scalar, after a media attribute', ['cover', 'name']],
    ['a dynamic zone', ['blocks']],
    ['nothing', ['valueOf']],
    ['nothing, after a relation', ['author', 'hasOwnProperty']],
  ])('a sort path through %s is a 400 naming it', (_name, path) => {
    const item: SortItem = { path, field: { column: 'id', valueType: 'integer' }, direction: 'asc' };
    const e = refusal(() => orderTerms(ctx(), article, 'r', [item]));
    expect(e.status).toBe(400);
    expect(e.details).toEqual({ key: path[path.length - 1], path: path.join('.'), source: 'query', param: 'sort' });
  });
});
