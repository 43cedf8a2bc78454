import { describe, expect, it } from 'vitest';
import { memoForTurn } from '../../src/database/turn-memo.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a change mark read once per turn of the event loop', () => {
  it('callers in the same turn share one read, across awaits that stay in the turn', async () => {
    let reads = 0;
    const mark = memoForTurn(() => ++reads);
    expect(mark()).toBe(1);
    await Promise.resolve();
    expect(mark()).toBe(1);
    expect(reads).toBe(1);
  });

  it('the first caller of the next turn reads again and sees what moved meanwhile', async () => {
    let version = 7;
    const mark = memoForTurn(() => version);
    expect(mark()).toBe(7);
    version = 8;
    await nextTurn();
    expect(mark()).toBe(8);
    version = 9;
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(mark()).toBe(9);
  });
});
