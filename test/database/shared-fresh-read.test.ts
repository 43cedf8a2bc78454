// A change mark must be read after its caller asked; callers waiting together share one such read.
import { describe, expect, it } from 'vitest';
import { sharedFreshRead } from '../../src/database/shared-fresh-read.js';

/** A read whose completions the test controls; each read answers its own sequence number. */
function controlledRead() {
  const pending: { n: number; resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  let started = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      pending.push({ n: ++started, resolve, reject });
    });
  const finish = async (ok = true) => {
    const r = pending.shift()!;
    if (ok) r.resolve(r.n);
    else r.reject(new Error(`read ${r.n} failed`));
    // let the reactions (clearing the in-flight read, starting the next) run
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { read, finish, started: () => started, pending: () => pending.length };
}

describe('shared fresh reads', () => {
  it('a caller with no read in flight starts its own', async () => {
    const c = controlledRead();
    const get = sharedFreshRead(c.read);
    const a = get();
    expect(c.started()).toBe(1);
    await c.finish();
    expect(await a).toBe(1);
    const b = get();
    expect(c.started()).toBe(2);
    await c.finish();
    expect(await b).toBe(2);
  });

  it('callers arriving during a read wait for one read started after it, and share it', async () => {
    const c = controlledRead();
    const get = sharedFreshRead(c.read);
    const first = get();
    const late = [get(), get(), get()];
    // nothing new is sent while the first read is out
    expect(c.started()).toBe(1);
    await c.finish();
    expect(await first).toBe(1);
    // the late callers never get the answer of the read that was out when they asked
    expect(c.started()).toBe(2);
    await c.finish();
    expect(await Promise.all(late)).toEqual([2, 2, 2]);
    expect(c.pending()).toBe(0);
  });

  it('a caller arriving while others wait for the next read joins them', async () => {
    const c = controlledRead();
    const get = sharedFreshRead(c.read);
    void get();
    const waiting = get();
    await c.finish(); // read 1 ends, read 2 starts for `waiting`
    const later = get(); // read 2 is in flight: this one needs read 3
    expect(c.started()).toBe(2);
    await c.finish();
    expect(await waiting).toBe(2);
    expect(c.started()).toBe(3);
    await c.finish();
    expect(await later).toBe(3);
  });

  it('a failed read fails its callers only; the next caller starts afresh', async () => {
    const c = controlledRead();
    const get = sharedFreshRead(c.read);
    const a = get();
    const b = get();
    await c.finish(false);
    await expect(a).rejects.toThrow('read 1 failed');
    // b waited for a read after the failed one, which is sent and answers
    expect(c.started()).toBe(2);
    await c.finish();
    expect(await b).toBe(2);
    const d = get();
    expect(c.started()).toBe(3);
    await c.finish();
    expect(await d).toBe(3);
  });
});
