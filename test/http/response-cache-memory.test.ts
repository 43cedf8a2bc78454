// The response cache's memory stays near its budget whatever the URLs: keys, bodies and each
// entry's overhead count, and overlong URLs are not kept at all. Measured as the heap (and Buffer
// memory) still held after a full garbage collection, as an attacker driving distinct URLs would
// leave it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/response-cache.js';
import { startTestApp, TEST_REST, type TestApp } from '../support/app.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

/** Heap and Buffer bytes still reachable after collecting everything that can be collected. */
function retained(): number {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * A distinct URL of about `length` characters: a filter on a value nobody has. A flat string of its
 * own, as a request's URL is (a concatenation would share the repeated part between keys).
 */
function filterUrl(i: number, length: number): string {
  const head = `/api/tags?filters[label][$eq]=${i}-`;
  return Buffer.from(head + 'x'.repeat(Math.max(0, length - head.length))).toString('latin1');
}

describe('response cache memory, driven directly', () => {
  it('20,000 distinct keys of 2 KB with small bodies keep no more than the budget (1 MB)', () => {
    const budget = 1 * MB;
    const cache = new ResponseCache(budget);
    const before = retained();
    // the body of an empty list, as each missed filter answers
    const body = JSON.stringify({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    for (let i = 0; i < 20_000; i++) {
      const key = `token:1\n\n${filterUrl(i, 2000)}`;
      cache.set(key, 'm', 'm', Buffer.from(body));
    }
    const held = retained() - before;
    console.log(`direct: 20,000 × 2 KB keys, budget ${budget / MB} MB → ${(held / MB).toFixed(1)} MB retained`);
    expect(held).toBeLessThan(budget * 1.5);
    // the cache still works: the latest keys are there
    expect(cache.get(`token:1\n\n${filterUrl(19_999, 2000)}`, 'm')?.toString()).toBe(body);
  });
});

describe('response cache memory, through HTTP', () => {
  let t: TestApp;
  // the cache switched on explicitly: MySQL runs without it by default (another process's writes would not be seen)
  const rest = { ...TEST_REST, responseCache: true };
  beforeAll(async () => {
    t = await startTestApp({ rest });
  });
  afterAll(async () => {
    await t.close();
  });

  async function drive(paths: readonly string[], concurrency = 8): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const r = await fetch(t.url + path, { headers: { authorization: `Bearer ${t.token}` } });
        expect(r.status).toBe(200);
        await r.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  it('a URL longer than 4096 characters is not cached; one just below is', async () => {
    // what is offered to the cache, seen on every dialect (on PostgreSQL a store is skipped whenever
    // the server's snapshot moved during the read, which other databases' commits make common)
    const cache = t.app.services.responseCache!;
    const offered: string[] = [];
    const set = cache.set.bind(cache);
    cache.set = (key, mark, current, body) => {
      offered.push(key);
      set(key, mark, current, body);
    };
    try {
      const below = filterUrl(-1, 4096);
      const above = filterUrl(-2, 4097);
      expect((await t.get(below)).status).toBe(200);
      expect((await t.get(above)).status).toBe(200);
      expect(offered.some((k) => k.endsWith(below))).toBe(true);
      expect(offered.some((k) => k.endsWith(above))).toBe(false);
    } finally {
      cache.set = set;
    }
  });

  it('8,000 distinct filter URLs (3.5 KB, and 8 KB ones that are not cached) leave the heap near the 16 MB budget', async () => {
    await drive(Array.from({ length: 200 }, (_, i) => filterUrl(-i, 100)));
    const before = retained();
    // the 3.5 KB ones are cached (their keys and bodies count: 6,000 keys alone are 43 MB of characters),
    // the 8 KB ones are not
    await drive(Array.from({ length: 8_000 }, (_, i) => filterUrl(i, i % 4 === 0 ? 8 * 1024 : 3584)));
    const held = retained() - before;
    console.log(`http: 8,000 URLs (8 KB and 3.5 KB) → ${(held / MB).toFixed(1)} MB retained (budget 16 MB)`);
    expect(held).toBeLessThan(20 * MB);
  }, 300_000);
});
