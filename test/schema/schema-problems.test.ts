// Start-up names every problem in the schema files at once (file, attribute, what is wrong), and
// says nothing more about things that only fail because of one already named.
import { describe, expect, it } from 'vitest';
import { SchemaError, SchemaErrors } from '../../src/errors.js';
import { loadModel } from '../../src/schema/load-model.js';
import { project } from '../config/helpers.js';

const type = (name: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ kind: 'collectionType', info: { singularName: name, pluralName: `${name}s` }, attributes, ...extra });
const at = (name: string): string => `src/api/${name}/content-types/${name}/schema.json`;

const QUOTE = '{ "attributes": { "body": { "type": "text" }, }';
// the parser's own words, which differ between Node versions
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

function failure(dir: string): unknown {
  try {
    loadModel(dir);
  } catch (e) {
    return e;
  }
  throw new Error('the model loaded');
}

describe('every schema problem at once', () => {
  it('lists each problem with its file and attribute, in file order', () => {
    const dir = project({
      [at('article')]: type('article', {
        title: { type: 'string' },
        colour: { type: 'colour' },
        tag: { type: 'relation', relation: 'manyToOne', target: 'api::label.label' },
        seo: { type: 'component', component: 'shared.seo' },
      }),
      [at('page')]: type('page', { slug: { type: 'uid', regex: '[' }, 'bad.name': { type: 'string' } }),
      [at('post')]: JSON.stringify({ kind: 'collection', info: { singularName: 'post', pluralName: 'posts' }, attributes: {} }),
      'src/components/shared/quote.json': QUOTE,
    });
    const e = failure(dir);
    expect(e).toBeInstanceOf(SchemaErrors);
    expect((e as Error).message).toBe(
      [
        'Found 7 problems in the schema files:',
        `  ${at('article')}: attribute "colour": unknown type "colour"`,
        `  ${at('page')}: attribute "slug": "regex" is not a valid regular expression: [`,
        `  ${at('page')}: attribute "bad.name": name must be letters, digits, underscores, spaces and hyphens, not digits alone`,
        `  ${at('post')}: "kind" must be "collectionType" or "singleType"`,
        `  src/components/shared/quote.json: invalid JSON (${jsonError(QUOTE)})`,
        `  ${at('article')}: attribute "seo": component "shared.seo" does not exist`,
        `  ${at('article')}: attribute "tag": relation target "api::label.label" does not exist`,
      ].join('\n'),
    );
  });

  it('a dynamic zone whose components are no list of uids is named (an empty list is a zone taking nothing yet)', () => {
    const e = failure(project({ [at('article')]: type('article', { blocks: { type: 'dynamiczone', components: 'shared.seo' } }) }));
    expect((e as Error).message).toBe(`${at('article')}: attribute "blocks": a dynamic zone needs "components": an array of component uids`);
  });

  it('a single problem is one line, as before', () => {
    const dir = project({ [at('article')]: type('article', { title: { type: 'strin' } }) });
    const e = failure(dir);
    expect(e).toBeInstanceOf(SchemaError);
    expect((e as Error).message).toBe(`${at('article')}: attribute "title": unknown type "strin"`);
  });

  it('a reference to a type, component or attribute already reported is not reported again', () => {
    const dir = project({
      // the page file itself is wrong: relations to it say nothing new
      [at('page')]: JSON.stringify({ kind: 'singleType', info: { singularName: 'page' }, attributes: {} }),
      [at('article')]: type('article', {
        page: { type: 'relation', relation: 'manyToOne', target: 'api::page.page' },
        hero: { type: 'component', component: 'blocks.hero' },
        // its partner below is wrong: the pairing isn't reported on top
        author: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'articles' },
      }),
      [at('writer')]: type('writer', { articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author', private: 'yes' } }),
      'src/components/blocks/hero.json': JSON.stringify({ collectionName: 'bad name', attributes: {} }),
    });
    expect((failure(dir) as Error).message).toBe(
      [
        'Found 3 problems in the schema files:',
        `  ${at('page')}: missing "info.pluralName"`,
        `  ${at('writer')}: attribute "articles": "private" must be true or false`,
        '  src/components/blocks/hero.json: collectionName "bad name" is not a valid table name',
      ].join('\n'),
    );
  });

  it('pairing, cycle and route problems are all listed too', () => {
    const dir = project({
      [at('article')]: type('article', { author: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' } }),
      [at('writer')]: type('writer', { posts: { type: 'string' } }, { collectionName: 'writers', info: { singularName: 'writer', pluralName: 'articles' } }),
      'src/components/a/one.json': JSON.stringify({ attributes: { two: { type: 'component', component: 'a.two' } } }),
      'src/components/a/two.json': JSON.stringify({ attributes: { one: { type: 'component', component: 'a.one' } } }),
    });
    expect((failure(dir) as Error).message).toBe(
      [
        'Found 3 problems in the schema files:',
        '  src/components/a/one.json: component "a.one" contains itself',
        `  ${at('article')}: attribute "author": "inversedBy: posts" needs a matching relation "posts" on api::writer.writer pointing back with "mappedBy: author"`,
        `  ${at('writer')}: route /api/articles is already used by api::article.article`,
      ].join('\n'),
    );
  });

  it('two things that would share one column or one table are named, system columns and tables included', () => {
    const dir = project({
      [at('gadget')]: type('gadget', {
        address1: { type: 'string' },
        address_1: { type: 'string' },
        created_at: { type: 'datetime' },
        owner1: { type: 'relation', relation: 'manyToOne', target: 'api::gadget.gadget' },
        owner_1: { type: 'relation', relation: 'manyToOne', target: 'api::gadget.gadget' },
      }),
      [at('lock')]: type('lock', { name: { type: 'string' } }, { collectionName: 'folio_locks' }),
      // a component has no created_at of its own: the name is free there
      'src/components/parts/stamp.json': JSON.stringify({ attributes: { created_at: { type: 'datetime' } } }),
    });
    expect((failure(dir) as Error).message).toBe(
      [
        'Found 4 problems in the schema files:',
        `  ${at('gadget')}: attribute "address_1": its column "address_1" clashes with attribute "address1"`,
        `  ${at('gadget')}: attribute "created_at": its column "created_at" is one every entry has already`,
        `  ${at('lock')}: table "folio_locks" is already used by Folio itself`,
        `  ${at('gadget')}: attribute "owner_1": table "gadget_owner_1_lnk" is already used by ${at('gadget')} attribute "owner1"`,
      ].join('\n'),
    );
  });

  it("a collectionName that is another type's components table is named", () => {
    const dir = project({
      [at('box')]: type('box', { name: { type: 'string' } }, { collectionName: 'gadget_cmps' }),
      [at('gadget')]: type('gadget', { name: { type: 'string' } }),
    });
    expect((failure(dir) as Error).message).toBe(`${at('gadget')}: table "gadget_cmps" is already used by ${at('box')}`);
  });
});
