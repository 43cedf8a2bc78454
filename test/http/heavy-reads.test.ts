// Reads that load more populated rows than a light read may run a few at a time (here one): a heavy
// read's slot is held until its response has been sent, while light reads go on beside it.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_REST } from '../support/app.js';
import { exampleWith } from '../support/example-with.js';
import { filePart, form, png } from '../upload/helpers.js';

let t: TestApp;
let project: ReturnType<typeof exampleWith>;
/** a user whose favourite tags are all the tags: past the light allowance when populated */
let fan: number;
const TAGS = 30;
const ARTICLES = 24;
// each answer is far larger than what the sockets between client and server buffer
const SUMMARY = 'x'.repeat(1_000_000);
const HEAVY = `/api/articles?populate[tags][sort]=label&pagination[pageSize]=${ARTICLES}`;
const LIGHT = '/api/articles?fields[0]=title&pagination[pageSize]=1';

beforeAll(async () => {
  project = exampleWith({
    'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      attributes: { favoriteTags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } },
    }),
  });
  t = await startTestApp({ dir: project.dir, rest: { ...TEST_REST, heavyReads: { concurrent: 1, rows: 20, bytes: 1024 * 1024, waitMs: 4000, stalledMs: 3000 } } });
  const tags: string[] = [];
  for (let i = 0; i < TAGS; i++) {
    const r = await t.request('POST', '/api/tags', { body: { data: { label: `tag ${String(i).padStart(2, '0')}` } } });
    expect(r.status).toBe(201);
    tags.push(r.body.data.documentId);
  }
  const upload = await fetch(`${t.url}/api/upload`, {
    method: 'POST',
    body: form([filePart(await png(10, 10), 'cover.png', 'image/png')]),
    headers: { authorization: `Bearer ${t.token}` },
  });
  expect(upload.status).toBe(201);
  const cover = ((await upload.json()) as { id: number }[])[0]!.id;
  for (let i = 0; i < ARTICLES; i++) {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: `Article ${i}`, summary: SUMMARY, tags, cover } } });
    expect(r.status).toBe(201);
  }
  const user = await t.request('POST', '/api/users', { body: { username: 'fan', email: 'fan@example.com', password: 'secret123', favoriteTags: tags } });
  expect(user.status, user.text).toBe(201);
  fan = user.body.id as number;
}, 120_000);
afterAll(async () => {
  await t?.close();
  project?.remove();
});

/** A GET whose response the client stops reading after its first bytes: the server can't finish sending it. */
function stalledGet(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(t.url).port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.token}\r\nConnection: close\r\n\r\n`);
    });
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function settles<T>(p: Promise<T>): { readonly done: boolean; readonly value: Promise<T> } {
  const state = { done: false, value: p };
  void p.finally(() => (state.done = true));
  return state;
}

describe('heavy reads', () => {
  it('a read past the light allowance answers in full', async () => {
    const r = await t.get(HEAVY);
    expect(r.status).toBe(200);
    const data = r.body.data as { summary: string; tags: { label: string }[] }[];
    expect(data).toHaveLength(ARTICLES);
    for (const a of data) {
      expect(a.summary).toBe(SUMMARY);
      expect(a.tags.map((tag) => tag.label)).toEqual(Array.from({ length: TAGS }, (_, i) => `tag ${String(i).padStart(2, '0')}`));
    }
  }, 60_000);

  it('a second heavy read waits until the first one has been sent, while light reads are answered', async () => {
    const first = await stalledGet(HEAVY);
    try {
      const second = settles(t.get(HEAVY));
      const light = await t.get(LIGHT);
      expect(light.status).toBe(200);
      expect(light.body.data).toHaveLength(1);
      // the light read went by; give the heavy one as long again, and more
      await new Promise((r) => setTimeout(r, 1000));
      expect(second.done).toBe(false);
      // the first client reads its answer: the slot passes on
      const drained = new Promise((r) => first.on('end', r));
      first.resume();
      first.on('data', () => {});
      await drained;
      const answer = await second.value;
      expect(answer.status).toBe(200);
      expect(answer.body.data).toHaveLength(ARTICLES);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it("the media library's reads wait for a slot as content reads do", async () => {
    const first = await stalledGet(HEAVY);
    try {
      // the cover's related list: 24 articles (drafts and published versions), past the light allowance of 20
      const files = settles(t.get('/api/upload/files?populate=related'));
      await t.get(LIGHT);
      await new Promise((r) => setTimeout(r, 1000));
      expect(files.done).toBe(false);
      first.destroy();
      const answer = await files.value;
      expect(answer.status).toBe(200);
      const related = (answer.body as { related: { title: string }[] }[])[0]!.related;
      expect(related.length).toBeGreaterThanOrEqual(ARTICLES);
      expect(new Set(related.map((a) => a.title)).size).toBe(ARTICLES);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it('a read whose populated entries come to more than a light answer takes a slot before it is serialized', async () => {
    const first = await stalledGet(HEAVY);
    try {
      // three rows in all, two of them articles of a megabyte each
      const big = settles(
        t.get(
          '/api/tags?pagination[pageSize]=1&sort=label&populate[articles][fields][0]=summary&populate[articles][filters][title][$in][0]=Article 0&populate[articles][filters][title][$in][1]=Article 1',
        ),
      );
      await t.get(LIGHT);
      await new Promise((r) => setTimeout(r, 1000));
      expect(big.done).toBe(false);
      first.destroy();
      const answer = await big.value;
      expect(answer.status).toBe(200);
      expect(answer.body.data[0].articles.map((a: { summary: string }) => a.summary.length)).toEqual([SUMMARY.length, SUMMARY.length]);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it('a client that reads nothing of a heavy answer is cut off after stalledMs, and the slot passes on', async () => {
    const first = await stalledGet(HEAVY);
    try {
      // past stalledMs (3 s): the server has let the first go; a heavy read sent now gets the slot within
      // its wait (4 s), where it would otherwise be answered 503
      await new Promise((r) => setTimeout(r, 3500));
      const next = await t.get(HEAVY);
      expect(next.status).toBe(200);
      expect(next.body.data).toHaveLength(ARTICLES);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it('a write whose answer is heavy commits, then waits for a slot to read its document again, while other writes go on', async () => {
    const [tag, other] = ((await t.get('/api/tags?sort=label&pagination[pageSize]=2&fields[0]=label&status=draft')).body.data as { documentId: string }[]).map((d) => d.documentId);
    const first = await stalledGet(HEAVY);
    try {
      // the tag's 24 draft articles: past the light allowance of 20
      const put = settles(t.request('PUT', `/api/tags/${tag}?populate[articles][fields][0]=title`, { body: { data: { color: '#ff0000' } } }));
      let seen: unknown;
      for (let i = 0; i < 50 && seen !== '#ff0000'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        seen = (await t.get(`/api/tags/${tag}?status=draft&fields[0]=color`)).body.data.color;
      }
      expect(seen).toBe('#ff0000');
      // its transaction is over: another write goes through (on SQLite it would wait for the lock)
      const next = await t.request('PUT', `/api/tags/${other}`, { body: { data: { color: '#0000ff' } } });
      expect(next.status).toBe(200);
      expect(next.body.data.color).toBe('#0000ff');
      await new Promise((r) => setTimeout(r, 1000));
      expect(put.done).toBe(false);
      first.destroy();
      const answer = await put.value;
      expect(answer.status).toBe(200);
      expect(answer.body.data.color).toBe('#ff0000');
      expect(answer.body.data.articles).toHaveLength(ARTICLES);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it('a write whose answer would pass the whole populate budget is refused before its commit: nothing is written', async () => {
    const tag = ((await t.get('/api/tags?sort=label:desc&pagination[pageSize]=1&fields[0]=label&status=draft')).body.data as { documentId: string }[])[0]!.documentId;
    const before = (await t.get(`/api/tags/${tag}?status=draft&fields[0]=color`)).body.data.color as string | null;
    // every article's tags' articles, each with its megabyte of summary: far past 32 MB
    const r = await t.request('PUT', `/api/tags/${tag}?populate[articles][populate][tags][populate][articles][fields][0]=summary`, { body: { data: { color: '#00ff00' } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(
      'This populate would return more than 32 MB of related entries in one request: narrow it with pagination, fields, filters or fewer populated levels',
    );
    expect((await t.get(`/api/tags/${tag}?status=draft&fields[0]=color`)).body.data.color).toBe(before);
  }, 60_000);

  it("a committed write's answer waits for its slot as long as it takes, never a 503 telling the client to send the write again", async () => {
    const tag = ((await t.get('/api/tags?sort=label&pagination[pageSize]=1&fields[0]=label&status=draft')).body.data as { documentId: string }[])[0]!.documentId;
    // two readers that read nothing hold the one slot in turn, 3 s each (stalledMs): past the 4 s a read may wait
    const first = await stalledGet(HEAVY);
    const second = stalledGet(HEAVY);
    try {
      await new Promise((r) => setTimeout(r, 300));
      // two articles of a megabyte each: light in rows, larger than a light answer, so it takes a slot to be serialized
      const put = await t.request(
        'PUT',
        `/api/tags/${tag}?populate[articles][fields][0]=summary&populate[articles][filters][title][$in][0]=Article 0&populate[articles][filters][title][$in][1]=Article 1`,
        {
          body: { data: { color: '#123456' } },
        },
      );
      expect(put.status, put.text.slice(0, 200)).toBe(200);
      expect(put.body.data.articles.map((a: { summary: string }) => a.summary.length)).toEqual([SUMMARY.length, SUMMARY.length]);
    } finally {
      first.destroy();
      (await second).destroy();
    }
  }, 60_000);

  it("a user's read, /users/:id and /users/me, waits for a slot as content reads do", async () => {
    const first = await stalledGet(HEAVY);
    try {
      const one = settles(t.get(`/api/users/${fan}?populate=favoriteTags`));
      await t.get(LIGHT);
      await new Promise((r) => setTimeout(r, 1000));
      expect(one.done).toBe(false);
      first.destroy();
      const answer = await one.value;
      expect(answer.status).toBe(200);
      expect(answer.body.favoriteTags).toHaveLength(TAGS);
      expect(answer.body).not.toHaveProperty('password');
    } finally {
      first.destroy();
    }
    const login = await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'fan', password: 'secret123' } });
    expect(login.status).toBe(200);
    await t.app.services.roles.grant('authenticated', ['api::tag.tag.find']);
    const again = await stalledGet(HEAVY);
    try {
      const me = settles(t.get('/api/users/me?populate=favoriteTags', { token: login.body.jwt as string }));
      await new Promise((r) => setTimeout(r, 1000));
      expect(me.done).toBe(false);
      again.destroy();
      const answer = await me.value;
      expect(answer.status).toBe(200);
      expect(answer.body.favoriteTags).toHaveLength(TAGS);
    } finally {
      again.destroy();
      await t.app.services.roles.revoke('authenticated', ['api::tag.tag.find']);
    }
  }, 60_000);

  it('a client that leaves while its heavy read waits takes no slot from those after it', async () => {
    const first = await stalledGet(HEAVY);
    const leaving = connect(Number(new URL(t.url).port), '127.0.0.1', () => {
      leaving.write(`GET ${HEAVY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.token}\r\n\r\n`);
    });
    await new Promise((r) => setTimeout(r, 300));
    leaving.destroy();
    const third = settles(t.get(HEAVY));
    first.destroy();
    const answer = await third.value;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(ARTICLES);
  }, 60_000);
});
