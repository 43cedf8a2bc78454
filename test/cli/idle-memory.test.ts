// An idle server gives back the young generation its load grew, and `folio start` runs the watcher
// that does it. The first part looks at this process's own heap, so the file has a process of its own.
import { getHeapSpaceStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseMemoryWhenIdle } from '../../src/cli/idle-memory.js';
import { copyProject, ensureBuilt, spawnFolio, type Project } from './helpers.js';

const MB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** Allocation as a busy server does it: many short-lived objects, some surviving a while. */
function churn(): void {
  let kept: object[] = [];
  for (let i = 0; i < 4_000_000; i++) {
    const o = { i, s: `value ${i}` };
    if (i % 10 === 0) kept.push(o);
    if (kept.length > 50_000) kept = [];
  }
}

describe('releasing memory when idle', () => {
  it('the young generation a load grew stays grown while the process idles, and shrinks once the watcher runs', async () => {
    churn();
    const grown = youngGenerationBytes();
    expect(grown).toBeGreaterThanOrEqual(16 * MB);
    // the premise: V8 alone keeps it
    await sleep(8_000);
    expect(youngGenerationBytes()).toBe(grown);
    const stop = releaseMemoryWhenIdle({ intervalMs: 500, collectionsPerSpell: 40 });
    try {
      const until = Date.now() + 20_000;
      while (youngGenerationBytes() >= grown && Date.now() < until) await sleep(250);
      expect(youngGenerationBytes()).toBeLessThanOrEqual(grown / 4);
    } finally {
      stop();
    }
  }, 40_000);
});

describe('folio start', () => {
  let project: Project;
  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
  });
  afterAll(() => project.remove());

  it('runs young-generation collections once its requests stop (seen in V8 --trace-gc output)', async () => {
    const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], {}, ['--trace-gc']);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      const url = `http://127.0.0.1:${m[1]}/api/articles?populate=*`;
      for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: 20 }, () => fetch(url).then((r) => r.arrayBuffer())));
      // V8 names a collection asked for by the gc function "testing"
      await server.waitFor(/Scavenge .* testing;/, 15_000);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 40_000);
});
