// A stored json or blocks value is written into responses as its stored text when that text is one
// JSON value, and as a string when it is not: every read (list, findOne, populate, a write's answer,
// a cached body) gives the client the value it stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../support/app.js';
import { isJsonText } from '../../src/values/json-text.js';
import { StoredJson, stringifyResponse } from '../../src/values/stored-json.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** creates an article, then stores `metadata` as this exact text, as another tool could have */
async function withStoredMetadata(title: string, text: string): Promise<string> {
  const r = await t.request('POST', '/api/articles', { body: { data: { title } } });
  expect(r.status, r.text).toBe(201);
  const id: string = r.body.data.documentId;
  await sql`update articles set metadata = ${text} where document_id = ${id}`.execute(t.app.database.db);
  return id;
}

// valid JSON a client could not have sent through Folio in this form: spacing, exponents, escapes,
// integers past 2^53, astral characters; the body carries it as it is stored
const UNUSUAL = '{ "big": 123456789012345678901234567890, "n": -1.50e-3, "s": "\\u00e9\u00e9 \\"q\\" \\\\ \\/ \ud83d\ude00", "a": [true, false, null, {}, []] }';

describe('stored json text in responses', () => {
  it('valid stored text is written as it is, in lists, findOne, populated relations and cached bodies', async () => {
    const id = await withStoredMetadata('unusual json', UNUSUAL);
    const parent = await t.request('POST', '/api/articles', { body: { data: { title: 'parent', related: [id] } } });
    expect(parent.status, parent.text).toBe(201);
    for (const path of [
      `/api/articles?filters[documentId]=${id}`,
      `/api/articles/${id}`,
      `/api/articles/${id}`,
      `/api/articles/${parent.body.data.documentId}?populate[related][fields][0]=metadata`,
    ]) {
      const r = await t.get(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toContain(`"metadata":${UNUSUAL}`);
      expect(JSON.parse(r.text)).toEqual(r.body);
    }
  });

  it("a write's answer carries the stored text of the fields it did not change", async () => {
    const id = await withStoredMetadata('kept json', UNUSUAL);
    const r = await t.request('PUT', `/api/articles/${id}`, { body: { data: { title: 'kept json, renamed' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain(`"metadata":${UNUSUAL}`);
  });

  it('text that is not one JSON value is answered as a string, beside valid values in the same list', async () => {
    const invalid = ['{"a":', "{'a':1}", '[1,]', '01', '{"a":1}}', 'tru', '{"a" 1}', '"\\x"', '1.', '-', '{"a":1,}', 'not json', ''];
    const ids = new Map<string, string>();
    for (const [i, text] of invalid.entries()) ids.set(await withStoredMetadata(`invalid ${i}`, text), text);
    const valid = await withStoredMetadata('valid beside', '{"ok":true}');
    const r = await t.get('/api/articles?filters[title][$startsWith]=invalid&fields[0]=metadata&sort=id&pagination[pageSize]=100');
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { documentId: string; metadata: unknown }) => [d.documentId, d.metadata])).toEqual([...ids].map(([id, text]) => [id, text]));
    const both = await t.get(`/api/articles?filters[documentId][$in][0]=${valid}&filters[documentId][$in][1]=${[...ids.keys()][0]}&fields[0]=metadata&sort=id`);
    expect(both.body.data.map((d: { metadata: unknown }) => d.metadata)).toEqual(['{"a":', { ok: true }]);
  });

  it('a stored string that looks like a placeholder mark is answered as itself', async () => {
    const text = JSON.stringify({ s: '\u0000folio-stored-json:', t: '"\\u0000folio-stored-json:x"' });
    const id = await withStoredMetadata('mark-like', text);
    const r = await t.get(`/api/articles/${id}`);
    expect(r.body.data.metadata).toEqual(JSON.parse(text));
  });
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('the JSON text check', () => {
  it('accepts what JSON.parse accepts and refuses what it refuses (fuzzed)', () => {
    const seeds = [UNUSUAL, '{"a":[1,2,{"b":"c"}],"d":-0.5e+10}', '[]', '"x"', '  [ 1 , { } ]  ', 'null', '3'];
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '9', 'e', 'E', '.', '-', '+', 't', 'r', 'f', 'n', 'a', ' ', '\n', '\t', '\u0001', 'x', 'l', 's'];
    // a fixed generator, so a failure names the same inputs on every run
    let state = 7;
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const parses = (s: string): boolean => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    };
    let accepted = 0;
    for (let round = 0; round < 20_000; round++) {
      let s = seeds[next(seeds.length)]!;
      for (let edits = 1 + next(3); edits > 0; edits--) {
        const at = next(s.length + 1);
        const kind = next(3);
        const piece = alphabet[next(alphabet.length)]!;
        s = kind === 0 ? s.slice(0, at) + piece + s.slice(at) : kind === 1 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + piece + s.slice(at + 1);
      }
      // a lone surrogate parses, but is refused on purpose (see the next test)
      const expected = parses(s) && !LONE_SURROGATE.test(s);
      expect(isJsonText(s, 10_000), JSON.stringify(s)).toBe(expected);
      if (expected) accepted++;
    }
    // the mutations must reach both answers often for the comparison to mean anything
    expect(accepted).toBeGreaterThan(2000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('refuses text nested deeper than the bound, and lone surrogates JSON.stringify would escape', () => {
    expect(isJsonText('[[[1]]]', 3)).toBe(true);
    expect(isJsonText('[[[1]]]', 2)).toBe(false);
    expect(isJsonText('{"a":{"b":{}}}', 3)).toBe(true);
    expect(isJsonText('{"a":{"b":{}}}', 2)).toBe(false);
    expect(isJsonText('"\ud800"', 10)).toBe(false);
    expect(isJsonText('"\udc00\ud800"', 10)).toBe(false);
    expect(isJsonText('"\\ud800"', 10)).toBe(true);
  });

  it('outside a response a kept text serializes as its parsed value; in one, as its text', () => {
    const kept = new StoredJson('{ "a" : [1, 2] }');
    expect(JSON.stringify({ kept })).toBe('{"kept":{"a":[1,2]}}');
    expect(stringifyResponse({ kept, other: 'x' })).toBe('{"kept":{ "a" : [1, 2] },"other":"x"}');
    expect(stringifyResponse([kept, { k: kept }])).toBe('[{ "a" : [1, 2] },{"k":{ "a" : [1, 2] }}]');
  });
});
