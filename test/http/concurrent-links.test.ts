// Writes that link documents, sent at once, must leave what some order of them one after another
// would: a one-to-one target held by one document per status, and no link to or from a document a
// concurrent delete removed (run one after another, the delete removes the links made before it and a
// link made after it is refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response, TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const schema = (name: string, plural: string, attributes: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: name, pluralName: plural },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, ...attributes },
  });

const FILES = {
  'src/api/page/content-types/page/schema.json': schema('page', 'pages', { slot: { type: 'relation', relation: 'oneToOne', target: 'api::slot.slot', inversedBy: 'page' } }),
  'src/api/slot/content-types/slot/schema.json': schema('slot', 'slots', { page: { type: 'relation', relation: 'oneToOne', target: 'api::page.page', mappedBy: 'slot' } }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

async function post(path: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', path, { body: { data } });
  expect(r.status, r.text).toBe(201);
  return r.body.data.documentId as string;
}

const statusesOf = (rs: readonly Response[]): number[] => [...new Set(rs.map((r) => r.status))].sort();

describe('pages taking one slot at once (both sides with draft & publish)', () => {
  for (const status of ['published', 'draft'] as const) {
    it(`ten ${status} writes: the slot ends held by exactly one page's ${status} version, the last one written`, async () => {
      for (let round = 0; round < 3; round++) {
        const slot = await post('/api/slots', { title: `slot ${status} ${round}` });
        const pages = await Promise.all(Array.from({ length: 10 }, (_, i) => post('/api/pages', { title: `page ${round}-${i}` })));
        const rs = await Promise.all(pages.map((p) => t.request('PUT', `/api/pages/${p}?status=${status}`, { body: { data: { slot } } })));
        expect(statusesOf(rs)).toEqual([200]);
        const holders = await t.get(`/api/pages?status=${status}&filters[slot][documentId][$eq]=${slot}&fields[0]=title`);
        expect(holders.status, holders.text).toBe(200);
        expect(holders.body.meta.pagination.total).toBe(1);
        const side = await t.get(`/api/slots/${slot}?status=${status}&populate[page][fields][0]=title`);
        expect(side.body.data.page.documentId).toBe(holders.body.data[0].documentId);
        const rows = await t.app.database.db.selectFrom('pages_slot_lnk').select('source_id').where('target_document_id', '=', slot).execute();
        // the other status keeps what it had: published pages took it when published (each publish is a
        // write of both versions), drafts only in the draft round
        expect(rows).toHaveLength(status === 'published' ? 2 : 1);
      }
    });
  }
});

describe('a delete racing writes that link to the document deleted', () => {
  it('six articles created naming an author while it is deleted: no article is left linked to it', async () => {
    for (let round = 0; round < 4; round++) {
      const author = await post('/api/authors', { name: `doomed ${round}` });
      const [gone, ...made] = await Promise.all([
        t.request('DELETE', `/api/authors/${author}`),
        ...Array.from({ length: 6 }, (_, i) => t.request('POST', '/api/articles', { body: { data: { title: `linking ${round}-${i}`, author } } })),
      ]);
      expect(gone!.status).toBe(204);
      for (const r of made) {
        if (r.status === 201) continue;
        expect(r.status, r.text).toBe(400);
        expect(r.body.error.message).toBe(`Document with id "${author}", locale "null" not found`);
      }
      const links = await t.app.database.db.selectFrom('articles_author_lnk').select('id').where('target_document_id', '=', author).execute();
      expect(links).toHaveLength(0);
    }
  });

  it('six writes adding tags to an article while one of its tags is deleted: the lists they rewrite keep no link to it (4 rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      const kept = await Promise.all(['a', 'b', 'c'].map((l) => post('/api/tags', { label: `kept ${round}${l}` })));
      const doomed = await post('/api/tags', { label: `doomed tag ${round}` });
      const extra = await Promise.all(Array.from({ length: 6 }, (_, i) => post('/api/tags', { label: `extra ${round}-${i}` })));
      const article = await post('/api/articles', { title: `tagged ${round}`, tags: [...kept, doomed] });
      const [gone, ...added] = await Promise.all([
        t.request('DELETE', `/api/tags/${doomed}`),
        ...extra.map((tag, i) =>
          t.request('PUT', `/api/articles/${article}?status=draft`, { body: { data: { tags: { connect: [i % 2 ? { documentId: tag, position: { start: true } } : tag] } } } }),
        ),
      ]);
      expect(gone!.status).toBe(204);
      expect(statusesOf(added)).toEqual([200]);
      const links = await t.app.database.db.selectFrom('articles_tags_lnk').select('id').where('target_document_id', '=', doomed).execute();
      expect(links).toHaveLength(0);
      const read = await t.get(`/api/articles/${article}?status=draft&populate[tags][fields][0]=label`);
      expect(read.body.data.tags).toHaveLength(9);
    }
  });

  it('a publish racing the delete of a tag its draft links: the published version keeps no link to it (8 rounds)', async () => {
    for (let round = 0; round < 8; round++) {
      const doomed = await post('/api/tags', { label: `published away ${round}` });
      const kept = await post('/api/tags', { label: `published kept ${round}` });
      const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: `publish race ${round}`, tags: [kept, doomed] } } });
      expect(r.status, r.text).toBe(201);
      const [published, gone] = await Promise.all([
        t.request('PUT', `/api/articles/${r.body.data.documentId}?status=published`, { body: { data: {} } }),
        t.request('DELETE', `/api/tags/${doomed}`),
      ]);
      expect([published.status, gone.status]).toEqual([200, 204]);
      const links = await t.app.database.db.selectFrom('articles_tags_lnk').select('id').where('target_document_id', '=', doomed).execute();
      expect(links, `round ${round}`).toHaveLength(0);
    }
  });

  it('six profiles naming an author while it is deleted (the side without the links): no link is left from its rows', async () => {
    for (let round = 0; round < 4; round++) {
      const author = await post('/api/authors', { name: `doomed owner ${round}` });
      const profiles = await Promise.all(Array.from({ length: 6 }, (_, i) => post('/api/profiles', { handle: `p${round}-${i}` })));
      const rowIds = (await t.app.database.db.selectFrom('authors').select('id').where('document_id', '=', author).execute()).map((r) => Number(r.id));
      const [gone, ...named] = await Promise.all([
        t.request('DELETE', `/api/authors/${author}`),
        ...profiles.map((p) => t.request('PUT', `/api/profiles/${p}`, { body: { data: { author } } })),
      ]);
      expect(gone!.status).toBe(204);
      for (const r of named) {
        if (r.status === 200) continue;
        expect(r.status, r.text).toBe(400);
        expect(r.body.error.message).toBe(`Document with id "${author}", locale "null" not found`);
      }
      const links = await t.app.database.db.selectFrom('authors_profile_lnk').select('id').where('source_id', 'in', rowIds).execute();
      expect(links).toHaveLength(0);
    }
  });
});

describe('writes linking each other at once', () => {
  it('eight articles each setting the others as `related`, all at once: every write succeeds, as one after another would (PostgreSQL deadlocked into 503s)', async () => {
    const docs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: `ring ${i}` } } });
      expect(r.status, r.text).toBe(201);
      docs.push(r.body.data.documentId);
    }
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(docs.map((d) => t.request('PUT', `/api/articles/${d}`, { body: { data: { related: { set: docs.filter((o) => o !== d) } } } })));
      expect(
        answers.map((a) => a.status),
        `round ${round}: ${answers.find((a) => a.status !== 200)?.text}`,
      ).toEqual(docs.map(() => 200));
    }
    const r = await t.get(`/api/articles/${docs[0]}?fields[0]=title&populate[related][fields][0]=title`);
    expect(r.body.data.related).toHaveLength(7);
  });
});

describe('one many-to-many written from both sides at once (tag.articles and article.tags)', () => {
  // the side without the links (tag.articles) edits the rows of the articles: run one after the other,
  // in either order, the pair is linked once, and a link one side removes stays removed
  const labelsOf = async (article: string): Promise<string[]> => {
    const r = await t.get(`/api/articles/${article}?status=draft&fields[0]=title&populate[tags][fields][0]=label`);
    expect(r.status, r.text).toBe(200);
    return (r.body.data.tags as { label: string }[]).map((x) => x.label);
  };

  it('the tag connecting the article while the article connects the tag: linked once, seen once from both sides (30 pairs; PostgreSQL stored some twice)', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => [await post('/api/tags', { label: `both sides ${i}` }), await post('/api/articles', { title: `both sides ${i}` })] as const),
    );
    const answers = await Promise.all(
      pairs.flatMap(([tag, article]) => [
        t.request('PUT', `/api/tags/${tag}`, { body: { data: { articles: { connect: [article] } } } }),
        t.request('PUT', `/api/articles/${article}`, { body: { data: { tags: { connect: [tag] } } } }),
      ]),
    );
    expect(statusesOf(answers)).toEqual([200]);
    for (const [i, [tag, article]] of pairs.entries()) {
      expect(await labelsOf(article), `pair ${i}`).toEqual([`both sides ${i}`]);
      const side = await t.get(`/api/tags/${tag}?status=draft&fields[0]=label&populate[articles][fields][0]=title`);
      expect(
        (side.body.data.articles as { title: string }[]).map((a) => a.title),
        `pair ${i}`,
      ).toEqual([`both sides ${i}`]);
    }
  });

  it('the tag removing the article (set: []) while the article connects another tag: the removed link stays removed (30 pairs)', async () => {
    const other = await post('/api/tags', { label: 'kept by every article' });
    const pairs = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const tag = await post('/api/tags', { label: `removed ${i}` });
        return [tag, await post('/api/articles', { title: `removed ${i}`, tags: [tag] })] as const;
      }),
    );
    const answers = await Promise.all(
      pairs.flatMap(([tag, article]) => [
        t.request('PUT', `/api/tags/${tag}`, { body: { data: { articles: { set: [] } } } }),
        t.request('PUT', `/api/articles/${article}`, { body: { data: { tags: { connect: [other] } } } }),
      ]),
    );
    expect(statusesOf(answers)).toEqual([200]);
    for (const [i, [, article]] of pairs.entries()) expect(await labelsOf(article), `pair ${i}`).toEqual(['kept by every article']);
  });
});

describe('publishing a document and one whose draft links it, at once', () => {
  // each publish carries links: the article its own draft's, the tag (or the related article) those the
  // drafts linking it hold; run one after the other, the published article holds the link once
  const once = async (publishBoth: (linked: string, owner: string) => Promise<Response[]>, linkedPath: string, field: string): Promise<void> => {
    for (let i = 0; i < 12; i++) {
      const linked = await post(`${linkedPath}?status=draft`, linkedPath === '/api/tags' ? { label: `race ${i} ${Date.now()}` } : { title: `race target ${i}` });
      const owner = await post('/api/articles', { title: `race owner ${i}` });
      const draft = await t.request('PUT', `/api/articles/${owner}?status=draft`, { body: { data: { [field]: [linked] } } });
      expect(draft.status, draft.text).toBe(200);
      const answers = await publishBoth(linked, owner);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const read = await t.get(`/api/articles/${owner}?fields[0]=title&populate[${field}][fields][0]=documentId`);
      expect(
        (read.body.data[field] as { documentId: string }[]).map((x) => x.documentId),
        `round ${i}`,
      ).toEqual([linked]);
    }
  };
  const publish = (path: string): Promise<Response> => t.request('PUT', path, { body: { data: {} } });

  it('an article and the tag its draft links: the published article links the tag once', async () => {
    await once((tag, article) => Promise.all([publish(`/api/tags/${tag}`), publish(`/api/articles/${article}`)]), '/api/tags', 'tags');
  });

  it('an article and the article its draft names as related: linked once', async () => {
    await once((target, article) => Promise.all([publish(`/api/articles/${target}`), publish(`/api/articles/${article}`)]), '/api/articles', 'related');
  });
});

describe('publishing a document while one whose draft links it is being edited', () => {
  /** the documentIds the owner's published version names as related, in order */
  const publishedRelated = async (owner: string): Promise<string[]> => {
    const read = await t.get(`/api/articles/${owner}?status=published&fields[0]=title&populate[related][fields][0]=title`);
    expect(read.status, read.text).toBe(200);
    return (read.body.data.related as { documentId: string }[]).map((x) => x.documentId);
  };

  // the publish carries the link to the edited article's published version (Strapi's self-referential
  // sync); the edit, a draft write, carries nothing itself: run one after the other, in either order,
  // the published article links the newly published one
  it('an article published while drafts of the article naming it as related are written: its published version shows it', async () => {
    for (let i = 0; i < 16; i++) {
      const target = await post('/api/articles?status=draft', { title: `edit race target ${i}` });
      const owner = await post('/api/articles', { title: `edit race owner ${i}` });
      const draft = await t.request('PUT', `/api/articles/${owner}?status=draft`, { body: { data: { related: [target] } } });
      expect(draft.status, draft.text).toBe(200);
      const answers = await Promise.all([
        t.request('PUT', `/api/articles/${target}`, { body: { data: {} } }),
        ...Array.from({ length: 3 }, (_, k) => t.request('PUT', `/api/articles/${owner}?status=draft`, { body: { data: { title: `edit race owner ${i} edit ${k}` } } })),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(await publishedRelated(owner), `round ${i}`).toEqual([target]);
    }
  });

  it('four articles an article’s draft names as related, published at once: its published version shows all four', async () => {
    for (let i = 0; i < 8; i++) {
      const targets = await Promise.all(Array.from({ length: 4 }, (_, k) => post('/api/articles?status=draft', { title: `carry race target ${i}-${k}` })));
      const owner = await post('/api/articles', { title: `carry race owner ${i}` });
      const draft = await t.request('PUT', `/api/articles/${owner}?status=draft`, { body: { data: { related: targets } } });
      expect(draft.status, draft.text).toBe(200);
      const answers = await Promise.all(targets.map((d) => t.request('PUT', `/api/articles/${d}`, { body: { data: {} } })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(await publishedRelated(owner), `round ${i}`).toEqual(targets);
    }
  });
});
