// Every comparison operator on every scalar type it applies to, including nulls and non-ASCII case
// folding. Expected results are computed in JavaScript from the rows the test wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

type Row = Record<string, unknown>;

const ROWS: Row[] = [
  {
    title: 'Alpha É',
    summary: 'Ünïcode text',
    slug: 'alpha',
    views: 5,
    wordCount: '100',
    rating: 1.25,
    score: 0.5,
    isFeatured: true,
    publishDate: '2025-01-01',
    publishTime: '08:00:00',
    eventAt: '2025-01-01T08:00:00.000Z',
    kind: 'news',
    contactEmail: 'a@x.test',
  },
  {
    title: 'beta é',
    summary: 'plain',
    slug: 'beta',
    views: 10,
    wordCount: '200',
    rating: 2.5,
    score: 1.5,
    isFeatured: false,
    publishDate: '2025-02-01',
    publishTime: '09:30:00',
    eventAt: '2025-02-01T09:30:00.000Z',
    kind: 'tutorial',
    contactEmail: 'b@x.test',
  },
  {
    title: 'Gamma',
    summary: null,
    slug: 'gamma',
    views: 20,
    wordCount: null,
    rating: null,
    score: 2.5,
    isFeatured: false,
    publishDate: null,
    publishTime: null,
    eventAt: null,
    kind: 'opinion',
    contactEmail: null,
  },
  {
    title: 'DELTA é',
    summary: 'ÜNÏCODE TEXT',
    slug: 'delta',
    views: 0,
    wordCount: '50',
    rating: 4,
    score: null,
    isFeatured: true,
    publishDate: '2024-12-31',
    publishTime: '23:59:59',
    eventAt: '2024-12-31T23:59:59.000Z',
    kind: 'news',
    contactEmail: 'd@x.test',
  },
];

// a value of each type to compare against, and a second for $between/$in
const PROBES: Record<string, [string, string]> = {
  title: ['beta é', 'Gamma'],
  summary: ['ünïcode', 'plain'],
  slug: ['beta', 'gamma'],
  kind: ['news', 'opinion'],
  contactEmail: ['b@x.test', 'd@x.test'],
  views: ['5', '20'],
  wordCount: ['100', '200'],
  rating: ['2.5', '4'],
  score: ['0.5', '2.5'],
  isFeatured: ['true', 'false'],
  publishDate: ['2025-01-01', '2025-02-01'],
  publishTime: ['08:00:00', '09:30:00'],
  eventAt: ['2025-01-01T08:00:00.000Z', '2025-02-01T09:30:00.000Z'],
};
const TEXT = new Set(['title', 'summary', 'slug', 'kind', 'contactEmail']);

function cast(field: string, v: string): unknown {
  if (['views', 'rating', 'score'].includes(field)) return Number(v);
  if (field === 'wordCount') return BigInt(v);
  if (field === 'isFeatured') return v === 'true';
  return v;
}

function norm(field: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (field === 'wordCount') return BigInt(v as string);
  return v;
}

const lower = (s: unknown): string => String(s).toLowerCase();

function matches(field: string, op: string, row: Row, a: string, b: string): boolean {
  const v = norm(field, row[field]);
  const x = cast(field, a);
  const y = cast(field, b);
  const isNull = v === null;
  switch (op) {
    case '$eq':
      return !isNull && v === x;
    case '$ne':
      return !isNull && v !== x;
    case '$eqi':
      return !isNull && lower(v) === lower(x);
    case '$nei':
      return !isNull && lower(v) !== lower(x);
    case '$lt':
      return !isNull && (v as number) < (x as number);
    case '$lte':
      return !isNull && (v as number) <= (x as number);
    case '$gt':
      return !isNull && (v as number) > (x as number);
    case '$gte':
      return !isNull && (v as number) >= (x as number);
    case '$in':
      return !isNull && (v === x || v === y);
    case '$notIn':
      return !isNull && v !== x && v !== y;
    case '$between':
      return !isNull && (v as number) >= (x as number) && (v as number) <= (y as number);
    case '$null':
      return isNull;
    case '$notNull':
      return !isNull;
    case '$contains':
      return !isNull && String(v).includes(a);
    case '$notContains':
      return !isNull && !String(v).includes(a);
    case '$containsi':
      return !isNull && lower(v).includes(lower(a));
    case '$notContainsi':
      return !isNull && !lower(v).includes(lower(a));
    case '$startsWith':
      return !isNull && String(v).startsWith(a);
    case '$startsWithi':
      return !isNull && lower(v).startsWith(lower(a));
    case '$endsWith':
      return !isNull && String(v).endsWith(a);
    case '$endsWithi':
      return !isNull && lower(v).endsWith(lower(a));
    default:
      throw new Error(op);
  }
}

const COMMON = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$between', '$null', '$notNull'];
const TEXT_ONLY = ['$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];

let t: TestApp;
const docs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  for (const data of ROWS) {
    const r = await t.request('POST', '/api/articles', { body: { data } });
    if (r.status !== 201) throw new Error(r.text);
    docs.push(r.body.data.documentId);
  }
});
afterAll(async () => {
  await t.close();
});

function query(field: string, op: string, a: string, b: string): string {
  const f = `filters[${field}][${op}]`;
  if (op === '$in' || op === '$notIn' || op === '$between') return `${f}[0]=${encodeURIComponent(a)}&${f}[1]=${encodeURIComponent(b)}`;
  if (op === '$null' || op === '$notNull') return `${f}=true`;
  return `${f}=${encodeURIComponent(a)}`;
}

describe('operator × type matrix', () => {
  for (const field of Object.keys(PROBES)) {
    const ops = TEXT.has(field) ? [...COMMON, ...TEXT_ONLY] : field === 'isFeatured' ? ['$eq', '$ne', '$in', '$notIn', '$null', '$notNull'] : COMMON;
    it(`${field}: ${ops.join(' ')}`, async () => {
      const [a, b] = PROBES[field]!;
      for (const op of ops) {
        const r = await t.get(`/api/articles?${query(field, op, a, b)}&sort=id&fields[0]=title`);
        expect(r.status, `${field} ${op} ${r.text}`).toBe(200);
        const want = ROWS.map((row, i) => (matches(field, op, row, a, b) ? docs[i] : null)).filter((d) => d !== null);
        expect(
          r.body.data.map((d: { documentId: string }) => d.documentId),
          `${field} ${op}`,
        ).toEqual(want);
      }
    });
  }

  it('text operators on non-text fields are a 400', async () => {
    const r = await t.get('/api/articles?filters[views][$contains]=1');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('$contains can only be used on text fields, not on views');
  });

  it("values that don't cast to the field's type are a 400 naming the field", async () => {
    for (const [q, message] of [
      ['filters[views][$eq]=abc', 'Invalid value "abc" for views: expected an integer'],
      ['filters[isFeatured][$eq]=yes', 'Invalid value "yes" for isFeatured: expected true or false'],
      ['filters[publishDate][$eq]=2025-13-01', 'Invalid format, expected yyyy-MM-dd'],
      ['filters[views][$null]=maybe', 'Invalid value "maybe" for views: expected true or false'],
    ] as const) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
  });
});
