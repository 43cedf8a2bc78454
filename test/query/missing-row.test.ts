// onMissingRow: the value of a filter on a row of NULLs, as the compiled SQL would compute it.
import { describe, expect, it } from 'vitest';
import type { CompareOp, FieldRef, SqlValue, Where } from '../../src/query/ast.js';
import { onMissingRow } from '../../src/query/missing-row.js';

const field: FieldRef = { column: 'label', valueType: 'string' };
const cmp = (op: CompareOp, value: SqlValue | readonly SqlValue[]): Where => ({ kind: 'compare', field, op, value });
const isNull = cmp('$null', true);
const eq = cmp('$eq', 'x');

describe('onMissingRow', () => {
  it('IS NULL tests decide, every other comparison is unknown', () => {
    expect(onMissingRow(isNull)).toBe('true');
    expect(onMissingRow(cmp('$null', false))).toBe('false');
    expect(onMissingRow(cmp('$notNull', true))).toBe('false');
    expect(onMissingRow(cmp('$notNull', false))).toBe('true');
    expect(onMissingRow(cmp('$eq', null))).toBe('true');
    expect(onMissingRow(cmp('$ne', null))).toBe('false');
    for (const op of ['$eq', '$ne', '$lt', '$contains', '$notContains', '$notIn', '$in'] as const)
      expect(onMissingRow(cmp(op, op.endsWith('In') ? ['x'] : 'x')), op).toBe('unknown');
  });

  it('and / or / not follow three-valued logic', () => {
    expect(onMissingRow({ kind: 'and', items: [isNull, eq] })).toBe('unknown');
    expect(onMissingRow({ kind: 'and', items: [isNull, cmp('$notNull', true)] })).toBe('false');
    expect(onMissingRow({ kind: 'or', items: [isNull, eq] })).toBe('true');
    expect(onMissingRow({ kind: 'or', items: [eq, cmp('$notNull', true)] })).toBe('unknown');
    expect(onMissingRow({ kind: 'not', item: eq })).toBe('unknown');
    expect(onMissingRow({ kind: 'not', item: cmp('$notNull', true) })).toBe('true');
  });

  it('a nested link is an EXISTS: true or false, never unknown', () => {
    expect(onMissingRow({ kind: 'relation', attribute: 'tags', owner: 'api::article.article', where: isNull })).toBe('true');
    expect(onMissingRow({ kind: 'component', attribute: 'seo', owner: 'api::article.article', where: eq })).toBe('false');
    expect(onMissingRow({ kind: 'not', item: { kind: 'media', attribute: 'cover', owner: 'api::article.article', where: eq } })).toBe('true');
  });
});
