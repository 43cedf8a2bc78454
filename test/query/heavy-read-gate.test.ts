// The heavy-read gate on its own: slots in order of asking, a waiter that leaves gives up its place,
// and a wait past waitMs is Strapi-shaped 503 rather than a wait for ever.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { HeavyReadGate, ReadAbandoned, SlotWaitTooLong, type ClientConnection } from '../../src/query/heavy-reads.js';

/** a client connection as the gate sees one: closed once it emits close */
function client(): ClientConnection & { close(): void } {
  const e = new EventEmitter();
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    once: (event, listener) => e.once(event, listener),
    off: (event, listener) => e.off(event, listener),
    close() {
      closed = true;
      e.emit('close');
    },
  };
}

const limits = { concurrent: 1, rows: 10, bytes: 1000, waitMs: 200 };

describe('the heavy-read gate', () => {
  it('a waiter whose client leaves is taken out of the queue, and the slot passes to the next one', async () => {
    const gate = new HeavyReadGate(limits);
    const holder = gate.lease();
    await holder.takeSlot(client());
    const leaving = client();
    const left = gate.lease().takeSlot(leaving);
    const next = gate.lease();
    const nextTook = next.takeSlot(client());
    expect(gate.load).toEqual({ running: 1, waiting: 2 });
    leaving.close();
    await expect(left).rejects.toBeInstanceOf(ReadAbandoned);
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    holder.release();
    await nextTook;
    expect(next.heavy).toBe(true);
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    next.release();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a wait past waitMs is a 503 saying so, and leaves the queue', async () => {
    const gate = new HeavyReadGate(limits);
    const holder = gate.lease();
    await holder.takeSlot(client());
    const waiting = gate.lease().takeSlot(client());
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitTooLong);
    await expect(waiting).rejects.toMatchObject({ status: 503 });
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    holder.release();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a lease released twice, or released without a slot, gives back nothing more', async () => {
    const gate = new HeavyReadGate(limits);
    const light = gate.lease();
    light.release();
    const holder = gate.lease();
    await holder.takeSlot(client());
    holder.release();
    holder.release();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
