// Dotted populate names through a dynamic zone, and `*` inside a dotted name, as the reference Strapi
// 5.54 answers them (seen on yakoo-strapi-local-starter's front end, whose page query asks
// `sections.slides.image` of a zone where one component's `slides` are components holding an image and
// another's are files): a path below a zone is taken when one of its components takes it whole, or,
// when the name after the zone ends it, when any component has that name (a plain value included);
// each component then populates what of the path it can. Separate list entries cut each other short
// as Strapi reads them; names within one entry never do. Below an entry, a name going on past a zone
// is refused, as Strapi refuses it there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../config/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { filePart, form, png } from '../upload/helpers.js';

const json = (v: unknown): string => JSON.stringify(v);
const component = (collectionName: string, attributes: Record<string, unknown>): string => json({ collectionName, info: { displayName: collectionName }, attributes });
const PAGE = json({
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    sections: { type: 'dynamiczone', components: ['blocks.carousel', 'blocks.gallery', 'blocks.feature'] },
    seo: { type: 'component', repeatable: false, component: 'shared.seo' },
    parent: { type: 'relation', relation: 'manyToOne', target: 'api::page.page' },
  },
});
const FILES = {
  'src/api/page/content-types/page/schema.json': PAGE,
  'src/components/blocks/carousel.json': component('components_blocks_carousels', {
    slides: { type: 'component', repeatable: true, component: 'blocks.slide' },
    layout: { type: 'string' },
  }),
  'src/components/blocks/slide.json': component('components_blocks_slides', { image: { type: 'media', multiple: false }, title: { type: 'string' } }),
  'src/components/blocks/gallery.json': component('components_blocks_galleries', { slides: { type: 'media', multiple: true }, layout: { type: 'string' } }),
  'src/components/blocks/feature.json': component('components_blocks_features', {
    image: { type: 'media', multiple: false },
    layout: { type: 'string' },
    note: { type: 'string', private: true },
    secret: { type: 'password' },
  }),
  'src/components/shared/seo.json': component('components_shared_seos', {
    metaTitle: { type: 'string' },
    metaSocial: { type: 'component', repeatable: true, component: 'shared.social' },
  }),
  'src/components/shared/social.json': component('components_shared_socials', { title: { type: 'string' }, image: { type: 'media', multiple: false } }),
};

let t: TestApp;
let page = '';

beforeAll(async () => {
  t = await startTestApp({ dir: project(FILES) });
  const up = await t.request('POST', '/api/upload', { raw: form([filePart(await png(4, 4), 'pixel.png', 'image/png')]) });
  expect(up.status, up.text).toBe(201);
  const file = up.body[0].id as number;
  const r = await t.request('POST', '/api/pages', {
    body: {
      data: {
        title: 'Home',
        sections: [
          { __component: 'blocks.carousel', layout: 'wide', slides: [{ title: 'One', image: file }] },
          { __component: 'blocks.gallery', layout: 'grid', slides: [file] },
          { __component: 'blocks.feature', layout: 'narrow', image: file },
        ],
        seo: { metaTitle: 'T', metaSocial: [{ title: 'S', image: file }] },
      },
    },
  });
  expect(r.status, r.text).toBe(201);
  page = r.body.data.documentId;
});
afterAll(async () => {
  await t.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
async function read(query: string): Promise<Record<string, any>> {
  const r = await t.get(`/api/pages/${page}?fields[0]=title&${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

async function refused(query: string): Promise<unknown> {
  const r = await t.get(`/api/pages?${query}`);
  expect(r.status, r.text).toBe(400);
  return r.body.error;
}

const invalidKey = (key: string, path: string) => ({
  status: 400,
  name: 'ValidationError',
  message: key === path ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
  details: { key, path, source: 'query', param: 'populate' },
});

describe('a dotted populate name through a dynamic zone', () => {
  it("goes as far as each component's attributes go: a component's slides get their image, another's slides are files", async () => {
    const { sections } = await read('populate=sections.slides.image');
    expect(sections).toHaveLength(3);
    expect(sections[0]).toMatchObject({ __component: 'blocks.carousel', slides: [{ title: 'One', image: { name: 'pixel.png', mime: 'image/png' } }] });
    expect(sections[1]).toMatchObject({ __component: 'blocks.gallery', slides: [{ name: 'pixel.png', mime: 'image/png' }] });
    expect(sections[2]).toEqual({ id: expect.any(Number), layout: 'narrow', __component: 'blocks.feature' });
  });

  it('a plain value named after the zone populates the zone alone', async () => {
    expect(await read('populate=sections.layout')).toEqual(await read('populate=sections'));
    expect(await read('populate[0]=sections.layout&populate[1]=sections.image')).toEqual(await read('populate=sections.image'));
  });

  it('is refused at a private or password name after the zone, as a private name is anywhere', async () => {
    for (const name of ['note', 'secret']) {
      const r = await t.get(`/api/pages?populate=sections.${name}`);
      expect(r.status, name).toBe(400);
      expect(r.body.error.message).toBe(`Invalid key ${name} at sections.${name}`);
      expect(r.text).not.toContain('narrow');
    }
  });

  it('is refused when no component takes the whole path, at the name after the zone', async () => {
    expect(await refused('populate=sections.slides.title')).toEqual(invalidKey('slides', 'sections.slides'));
    expect(await refused('populate=sections.image.name')).toEqual(invalidKey('image', 'sections.image'));
    expect(await refused('populate=sections.nope')).toEqual(invalidKey('nope', 'sections.nope'));
  });
});

describe('a * inside a dotted populate name', () => {
  it('is an unknown key where it stands, as any other name', async () => {
    expect(await refused('populate=seo.*')).toEqual(invalidKey('*', 'seo.*'));
    expect(await refused('populate=seo.*.x')).toEqual(invalidKey('*', 'seo.*'));
    expect(await refused('populate=*.seo')).toEqual(invalidKey('*', '*'));
    expect(await refused('populate=sections.*')).toEqual(invalidKey('*', 'sections.*'));
    expect(await refused('populate=sections.slides.*')).toEqual(invalidKey('slides', 'sections.slides'));
    expect(await refused('populate=seo.metaSocial.*')).toEqual(invalidKey('*', 'seo.metaSocial.*'));
    expect(await refused('populate[seo][populate]=metaSocial.*')).toEqual(invalidKey('*', 'metaSocial.*'));
  });
});

describe('a shorter name after a longer one', () => {
  it('cuts it short from a later list entry; within one entry it adds nothing and takes nothing away', async () => {
    expect((await read('populate[0]=seo.metaSocial.image&populate[1]=seo')).seo).not.toHaveProperty('metaSocial');
    expect((await read('populate=seo.metaSocial.image,seo')).seo.metaSocial[0].image).toMatchObject({ name: 'pixel.png' });
    expect((await read('populate[0]=seo.metaSocial.image,seo')).seo.metaSocial[0].image).toMatchObject({ name: 'pixel.png' });
    expect((await read('populate[0]=sections.slides.image&populate[1]=sections.slides')).sections[0].slides[0]).not.toHaveProperty('image');
    expect((await read('populate=sections.slides.image,sections.slides')).sections[0].slides[0].image).toMatchObject({ name: 'pixel.png' });
    expect((await read('populate[0]=sections.slides&populate[1]=sections.slides.image')).sections[0].slides[0].image).toMatchObject({ name: 'pixel.png' });
  });
});

describe('below an entry, a name going on past a dynamic zone', () => {
  it("is Strapi's refusal of a populate under a zone, named where the request wrote it, as in the object form", async () => {
    const atZone = invalidKey('populate', 'parent.populate.sections');
    expect(await refused('populate[parent][populate]=sections.slides.image')).toEqual(atZone);
    expect(await refused('populate[parent][populate][0]=sections.layout')).toEqual(atZone);
    expect(await refused('populate[parent][populate][0]=seo.metaSocial&populate[parent][populate][1]=sections.image')).toEqual(atZone);
    expect(await refused('populate[parent][populate][sections][populate][image]=true')).toEqual(atZone);
    // a bad name is reported first, at its own dotted path
    expect(await refused('populate[parent][populate]=sections.nope')).toEqual(invalidKey('nope', 'sections.nope'));
    // the zone alone, or its fragments, are read as ever; so is a name past the zone that a later entry cut short
    // (`…[0]=sections.image&…[1]=sections` asks the zone alone, as the reference answers it)
    expect((await t.get('/api/pages?populate[parent][populate][0]=sections')).status).toBe(200);
    expect((await t.get('/api/pages?populate[parent][populate][0]=sections.image&populate[parent][populate][1]=sections')).status).toBe(200);
    expect(await refused('populate[parent][populate][0]=sections&populate[parent][populate][1]=sections.image')).toEqual(atZone);
    expect((await t.get('/api/pages?populate[parent][populate][sections][on][blocks.feature][populate]=image')).status).toBe(200);
  });
});
