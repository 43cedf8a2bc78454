import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoForTurn } from '../../src/database/turn-memo.js';

// A real socket pair: a write from the client is handled by the server in a later poll of the loop,
// which is what a request arriving after a change looks like.
let server: Server;
let client: Socket;
const received: Array<() => void> = [];
const nextArrival = (): Promise<void> => new Promise((resolve) => received.push(resolve));

beforeAll(async () => {
  server = createServer((socket) => socket.on('data', () => received.shift()?.()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  client = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a change mark read once between two polls of the event loop', () => {
  it('callers that run before the next poll share one read, across awaits', async () => {
    let reads = 0;
    const mark = memoForTurn(() => ++reads);
    expect(mark()).toBe(1);
    await Promise.resolve();
    expect(mark()).toBe(1);
    expect(reads).toBe(1);
  });

  it.each([
    ['a timer', (done: () => void) => setTimeout(done, 1)],
    ['an immediate', (done: () => void) => setImmediate(done)],
  ])('a request handled after a read made in %s reads again and sees what moved meanwhile', async (_, schedule) => {
    let version = 7;
    const mark = memoForTurn(() => version);
    await new Promise<void>((resolve) => schedule(resolve));
    expect(mark()).toBe(7);
    version = 8;
    const arrived = nextArrival();
    client.write('x');
    await arrived;
    expect(mark()).toBe(8);
  });

  it('a request handled after a read made by an earlier request reads again', async () => {
    let version = 1;
    const mark = memoForTurn(() => version);
    const first = nextArrival();
    client.write('a');
    await first;
    expect(mark()).toBe(1);
    version = 2;
    const second = nextArrival();
    client.write('b');
    await second;
    expect(mark()).toBe(2);
  });
});
