// Content-type schemas written as modules, as Strapi loads them: a TypeScript project's schema.ts (Strapi
// reads its compiled schema.js) and a JavaScript project's schema.js, beside schema.json files.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { SchemaError, SchemaErrors } from '../../src/errors.js';
import { loadModel } from '../../src/schema/load-model.js';
import { project, SECRETS } from '../config/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';

const at = (name: string, file: string): string => `src/api/${name}/content-types/${name}/${file}`;
const attrs = "attributes: { title: { type: 'string', required: true } }";

// as Gaodafeiyan/strapi-backend-skeleton writes them: `export default { … }`, typed
const TS_SCHEMA = `import type { Schema } from '@strapi/strapi';
const schema: Schema.ContentType = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  ${attrs},
} as unknown as Schema.ContentType;
export default schema;
`;
const JS_SCHEMA = `module.exports = { kind: 'singleType', info: { singularName: 'banner', pluralName: 'banners' }, options: { draftAndPublish: false }, ${attrs} };`;

async function modelOf(files: Record<string, string>): Promise<ReturnType<typeof loadModel>> {
  const { config } = await loadConfig(project(files), { ...SECRETS }, { writeEnvFile: false });
  return loadModel(config.dir, { schemaModules: config.schemaModules });
}

describe('schemas written as modules', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('schema.ts and schema.js are read; a folder with schema.json keeps it', async () => {
    const files = {
      [at('note', 'schema.ts')]: TS_SCHEMA,
      [at('banner', 'schema.js')]: JS_SCHEMA,
      [at('memo', 'schema.json')]: JSON.stringify({ kind: 'collectionType', info: { singularName: 'memo', pluralName: 'memos' }, attributes: { body: { type: 'text' } } }),
      [at('memo', 'schema.js')]: `module.exports = { kind: 'singleType', info: { singularName: 'memo', pluralName: 'memos' }, attributes: {} };`,
    };
    const model = await modelOf(files);
    expect(model.contentTypes.get('api::note.note')).toMatchObject({ kind: 'collectionType', table: 'notes', file: at('note', 'schema.ts') });
    expect(model.contentTypes.get('api::banner.banner')).toMatchObject({ kind: 'singleType', file: at('banner', 'schema.js') });
    expect(model.contentTypes.get('api::memo.memo')).toMatchObject({ kind: 'collectionType', file: at('memo', 'schema.json') });

    const { config } = await loadConfig(project(files), { ...SECRETS }, { writeEnvFile: false });
    t = await startTestApp({ dir: config.dir, schemaModules: config.schemaModules });
    const made = await t.request('POST', '/api/notes', { body: { data: { title: 'From TS' } } });
    expect(made.status, made.text).toBe(201);
    expect((await t.get('/api/notes')).body.data).toEqual([expect.objectContaining({ title: 'From TS' })]);
    const missing = await t.request('POST', '/api/notes', { body: { data: {} } });
    expect(missing.status).toBe(400);
    expect((await t.request('PUT', '/api/banner', { body: { data: { title: 'From JS' } } })).status).toBe(200);
    expect((await t.get('/api/banner')).body.data).toMatchObject({ title: 'From JS' });
  });

  it('components written as <name>.ts or <name>.js are read, as Strapi reads them; a <name>.json beside one keeps its place (OpenG7/openg7-platform)', async () => {
    const files = {
      [at('page', 'schema.json')]: JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'page', pluralName: 'pages' },
        options: { draftAndPublish: false },
        attributes: {
          link: { type: 'component', component: 'shared.link' },
          cards: { type: 'component', component: 'blocks.card', repeatable: true },
          seo: { type: 'component', component: 'shared.seo' },
        },
      }),
      'src/components/shared/link.ts':
        "import type { Schema } from '@strapi/strapi';\nexport default { collectionName: 'components_shared_links', info: { displayName: 'Link' }, attributes: { url: { type: 'string', required: true } } } as unknown as Schema.Component;",
      'src/components/shared/link.d.ts': 'export {};',
      'src/components/blocks/card.js':
        "module.exports = { collectionName: 'components_blocks_cards', info: { displayName: 'Card' }, attributes: { heading: { type: 'string' } } };",
      'src/components/shared/seo.json': JSON.stringify({ collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } }),
      'src/components/shared/seo.js': "module.exports = { collectionName: 'components_shared_seo_js', info: { displayName: 'Seo' }, attributes: { other: { type: 'string' } } };",
    };
    const model = await modelOf(files);
    expect(model.components.get('shared.link')).toMatchObject({ table: 'components_shared_links', file: 'src/components/shared/link.ts' });
    expect(model.components.get('blocks.card')).toMatchObject({ table: 'components_blocks_cards', file: 'src/components/blocks/card.js' });
    expect(model.components.get('shared.seo')).toMatchObject({ table: 'components_shared_seos', file: 'src/components/shared/seo.json' });
    expect([...model.components.keys()].sort()).toEqual(['blocks.card', 'shared.link', 'shared.seo']);

    const { config } = await loadConfig(project(files), { ...SECRETS }, { writeEnvFile: false });
    const app = await startTestApp({ dir: config.dir, schemaModules: config.schemaModules });
    try {
      const body = { data: { link: { url: 'https://example.test' }, cards: [{ heading: 'One' }, { heading: 'Two' }], seo: { metaTitle: 'T' } } };
      const made = await app.request('POST', '/api/pages', { body });
      expect(made.status, made.text).toBe(201);
      const read = await app.get(`/api/pages/${(made.body as { data: { documentId: string } }).data.documentId}?populate=*`);
      expect(read.body.data).toMatchObject({
        link: { url: 'https://example.test' },
        cards: [{ heading: 'One' }, { heading: 'Two' }],
        seo: { metaTitle: 'T' },
      });
      expect(read.body.data.seo).not.toHaveProperty('other');
      // the TypeScript component's rules hold
      const missing = await app.request('POST', '/api/pages', { body: { data: { link: {} } } });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('link.url must be defined.');
    } finally {
      await app.close();
    }
  });

  it('a component module that fails to run is a schema problem naming its file, not a missing component', async () => {
    const e = await modelOf({
      [at('page', 'schema.json')]: JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'page', pluralName: 'pages' },
        attributes: { link: { type: 'component', component: 'shared.link' } },
      }),
      'src/components/shared/link.ts': 'export default { collectionName: ',
    }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(SchemaError);
    expect((e as Error).message).toMatch(/^src\/components\/shared\/link\.ts: could not be run \(line 1, column \d+: /);
  });

  it('a content-type folder with no schema at all is named at start-up', async () => {
    const model = await modelOf({ [at('draft', 'lifecycles.js')]: 'module.exports = {};' });
    expect(model.contentTypes.has('api::draft.draft')).toBe(false);
    expect(model.notices).toContain('src/api/draft/content-types/draft: no schema.json (nor schema.ts/.js), so no content type api::draft.draft; Strapi would not start');
  });

  it('a module that fails to run, or exports no object, is a schema problem naming its file', async () => {
    let e: unknown;
    try {
      await modelOf({ [at('note', 'schema.ts')]: 'export default { kind: ', [at('banner', 'schema.js')]: 'module.exports = 42;' });
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(SchemaErrors);
    const lines = (e as Error).message.split('\n');
    expect(lines[0]).toBe('Found 2 problems in the schema files:');
    expect(lines).toContain(`  ${at('banner', 'schema.js')}: must export the schema object (export default { kind, info, attributes, … })`);
    expect(lines.find((l) => l.startsWith(`  ${at('note', 'schema.ts')}: could not be run (`))).toMatch(/line 1, column \d+: /);
    // one such file alone is a single SchemaError, like any other schema problem
    await expect(modelOf({ [at('banner', 'schema.js')]: 'module.exports = [];' })).rejects.toBeInstanceOf(SchemaError);
  });
});
