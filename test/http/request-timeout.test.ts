// A client that sends its request slowly is cut off after the request timeout (Node's 300 s default,
// as Strapi's server runs; Fastify's own default is none). Without it, a body sent one byte at a time
// held its connection for ever, and enough such clients every file descriptor of the server.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
const REQUEST_TIMEOUT_MS = 300_000;
import { startTestApp, type TestApp } from '../support/app.js';

const TIMEOUT_MS = 600;

/** Sends the headers and the start of a body, then one byte every 100 ms; resolves with what the server answered once it closed, or null after `waitMs`. */
function dribble(url: string, waitMs: number): Promise<string | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write('POST /api/auth/local HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"identifier":');
    });
    const tick = setInterval(() => socket.write(' '), 100);
    const give = setTimeout(() => {
      clearInterval(tick);
      socket.destroy();
      resolve(null);
    }, waitMs);
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(tick);
      clearTimeout(give);
      resolve(answer);
    });
  });
}

describe('request timeout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { requestTimeoutMs: TIMEOUT_MS });
  });
  afterAll(() => t.close());

  it('a body still arriving after the timeout is answered 408 and its connection closed', async () => {
    const started = Date.now();
    const answer = await dribble(t.url, 10 * TIMEOUT_MS);
    expect(answer).not.toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it('requests sent in time are served as usual', async () => {
    expect((await t.get('/api/articles')).status).toBe(200);
  });

  it("defaults to Node's own 300 s", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(300_000);
  });
});
