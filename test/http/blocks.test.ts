// Rich-text (`blocks`) nodes are checked as Strapi 5.54 checks them, drafts included: the node types and
// their fields, links whose URL must parse and be http:, https:, ftp:, mailto:, tel: or a path. Every body
// below was sent to the reference Strapi too (2026-11-26) and answered the same, values included.
// Folio used to store any list of objects, a `javascript:` link among them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The 400 a draft with this body gets: its message and each error's [path, message, value]. */
async function refusal(body: unknown): Promise<{ message: string; errors: unknown[][] }> {
  const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'blocks', body } } });
  expect(r.status, r.text).toBe(400);
  const errors = (r.body.error.details.errors as { path: string[]; message: string; value?: unknown }[]).map((e) => [
    e.path.join('.'),
    e.message,
    ...('value' in e ? [e.value] : []),
  ]);
  return { message: r.body.error.message as string, errors };
}

const text = (s: string) => ({ type: 'text', text: s });

describe('blocks', () => {
  it('well-formed nodes of every kind are stored as sent', async () => {
    const body = [
      { type: 'heading', level: 2, children: [text('Title')] },
      {
        type: 'paragraph',
        children: [
          { ...text('bold'), bold: true, italic: 1, code: 'false' },
          { type: 'link', url: '/about', children: [text('about')] },
        ],
      },
      {
        type: 'list',
        format: 'ordered',
        children: [
          { type: 'list-item', children: [text('a')] },
          { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [] }] },
        ],
      },
      { type: 'quote', children: [text('q')] },
      { type: 'code', language: 'ts', children: [text('x = 1')] },
      { type: 'paragraph', children: [{ type: 'link', url: 'mailto:a@b.test', children: [] }] },
    ];
    const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'ok', body } } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.body).toEqual(body);
  });

  it('a link other than http:, https:, ftp:, mailto:, tel: or a path (javascript:, data:, file:, sms:…), or that is no URL, is refused', async () => {
    const scheme = async (url: string): Promise<number> =>
      (
        await t.request('POST', '/api/articles?status=draft', {
          body: { data: { title: 'l', body: [{ type: 'paragraph', children: [{ type: 'link', url, children: [text('x')] }] }] } },
        })
      ).status;
    for (const url of ['http://a.b', 'https://a.b/c', 'ftp://a.b', 'tel:123', 'mailto:a@b.c', '/path']) expect(await scheme(url), url).toBe(201);
    for (const url of ['file:///etc/passwd', 'sms:123', 'foo:bar', 'blob:https://a.b', 'ws://a.b', 'vbscript:x']) expect(await scheme(url), url).toBe(400);
    const link = (url: unknown) => ({ type: 'link', url, children: [] });
    expect(
      await refusal([
        { type: 'paragraph', children: [link('javascript:alert(1)'), link('mailto:a@b.c'), link('JAVASCRIPT:x'), link('data:text/html,x'), link('not a url'), link(undefined)] },
      ]),
    ).toEqual({
      message: '5 errors occurred',
      errors: [
        ['body.0.children.0.url', 'Please specify a valid link.', 'javascript:alert(1)'],
        ['body.0.children.2.url', 'Please specify a valid link.', 'JAVASCRIPT:x'],
        ['body.0.children.3.url', 'Please specify a valid link.', 'data:text/html,x'],
        ['body.0.children.4.url', 'Please specify a valid link.', 'not a url'],
        ['body.0.children.5.url', 'Please specify a valid link.'],
      ],
    });
  });

  it("each kind of node's own rules, with Strapi's messages", async () => {
    expect(await refusal([{ type: 'heading', level: 9, children: [] }])).toEqual({
      message: '2 errors occurred',
      errors: [
        ['body.0.level', 'body[0].level must be one of the following values: 1, 2, 3, 4, 5, 6', 9],
        ['body.0.children', 'Heading node children must have at least one Text or Link node', []],
      ],
    });
    expect(await refusal([{ type: 'heading', level: 'abc', children: [text('')] }]).then((r) => r.errors)).toEqual([
      ['body.0.level', 'body[0].level must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).', null],
      ['body.0.level', 'body[0].level must be one of the following values: 1, 2, 3, 4, 5, 6', null],
    ]);
    expect(await refusal([{ type: 'code', children: [{ type: 'link', url: '/x', children: [] }] }]).then((r) => r.errors)).toEqual([
      ['body.0.children.0.type', 'body[0].children[0].type must be one of the following values: text', 'link'],
      ['body.0.children.0.text', 'Text must be defined with at least an empty string'],
    ]);
    expect(await refusal([{ type: 'paragraph', children: { a: 1 } }]).then((r) => r.errors)).toEqual([
      // yup prints the numbers inside an object as text
      ['body.0.children', 'body[0].children must be a `array` type, but the final value was: `null` (cast from the value `{\n  "a": "1"\n}`).', null],
    ]);
    expect(await refusal([{ type: 'paragraph', children: [{ ...text('a'), bold: 'yes' }] }]).then((r) => r.errors)).toEqual([
      ['body.0.children.0.bold', 'body[0].children[0].bold must be a `boolean` type, but the final value was: `"yes"`.', 'yes'],
    ]);
    const image = await refusal([{ type: 'image', image: { name: 'a', url: '/u', width: 'w' }, children: [] }]);
    expect(image.errors.slice(0, 3)).toEqual([
      ['body.0.image.width', 'body[0].image.width must be a `number` type, but the final value was: `NaN` (cast from the value `"w"`).', null],
      ['body.0.image.height', 'body[0].image.height is a required field'],
      ['body.0.image.hash', 'body[0].image.hash is a required field'],
    ]);
  });

  it('nodes of no known type, and the order Strapi lists errors in (a node that takes yup longer to check, later)', async () => {
    expect(
      await refusal([
        { type: 'nope' },
        { type: 'paragraph' },
        { type: 'paragraph', children: [{ type: 'text' }] },
        { type: 'paragraph', children: [{ type: 'bold', text: 'x' }] },
        { type: 'list', format: 'x', children: [{ type: 'p' }] },
        5,
        null,
      ]),
    ).toEqual({
      message: '8 errors occurred',
      errors: [
        ['body.0', 'Block node is of invalid type', { type: 'nope' }],
        ['body.5', 'Block node is of invalid type', 5],
        ['body.6', 'Block node is of invalid type', null],
        ['body.1.children', 'body[1].children is a required field'],
        ['body.3.children.0', 'Inline node must be Text or Link', { type: 'bold', text: 'x' }],
        ['body.4.format', 'body[4].format must be one of the following values: ordered, unordered', 'x'],
        ['body.4.children.0', 'Inline node must be list-item or list', { type: 'p' }],
        ['body.2.children.0.text', 'Text must be defined with at least an empty string'],
      ],
    });
  });

  it("errors come in yup's order: a node's fields in key order (an image's image.* before its children), an array's items as their checks finish", async () => {
    const paths = async (body: unknown): Promise<string[]> => (await refusal(body)).errors.map((e) => e[0] as string);
    const required = ['name', 'url', 'width', 'height', 'hash', 'ext', 'mime', 'size', 'provider', 'createdAt', 'updatedAt'].map((k) => `body.0.image.${k}`);
    expect(await paths([{ type: 'image', image: {}, children: [{ type: 'nope' }, { ...text('a'), bold: 'x' }] }])).toEqual([
      ...required,
      'body.0.children.0',
      'body.0.children.1.bold',
    ]);
    // a paragraph and a heading whose checks take as long: in document order, the deeper error first
    expect(
      await paths([
        { type: 'paragraph', children: [{ ...text('a'), bold: 'x' }] },
        { type: 'heading', level: 9, children: [text('a')] },
      ]),
    ).toEqual(['body.0.children.0.bold', 'body.1.level']);
    // an image below a link takes longer than a heading after it
    expect(
      await paths([
        { type: 'image', image: { name: 5 }, children: [{ type: 'link', url: 'javascript:x', children: [text('')] }] },
        { type: 'heading', level: 9, children: [] },
      ]),
    ).toEqual(['body.1.level', 'body.1.children', ...required.slice(1), 'body.0.children.0.url']);
    // an item of no known type is checked sooner than a text node beside it
    expect(await paths([{ type: 'paragraph', children: [{ ...text('a'), bold: 'x' }, { type: 'nope' }] }])).toEqual(['body.0.children.1', 'body.0.children.0.bold']);
  });
});
