// Custom fields behave exactly as the type their plugin stores: validation, filters, sort and JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, SchemaError } from '../../src/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
import { loadModel } from '../../src/schema/load-model.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { project, SECRETS } from '../config/helpers.js';

/** what loading the project throws (the model, when it doesn't) */
function loadError(dir: string): unknown {
  try {
    return loadModel(dir);
  } catch (err) {
    return err;
  }
}

const SWATCH = 'src/api/swatch/content-types/swatch/schema.json';
const custom = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'customField', customField: id, ...extra });
const swatchType = JSON.stringify({
  kind: 'collectionType',
  info: { singularName: 'swatch', pluralName: 'swatches' },
  options: { draftAndPublish: false },
  attributes: {
    colour: custom('plugin::color-picker.color', { options: { format: 'hex' }, regex: '^#[0-9a-f]{6}$', required: true }),
    body: custom('plugin::ckeditor5.CKEditor', { options: { preset: 'defaultHtml' } }),
    moods: custom('plugin::multi-select.multi-select', { options: ['calm', 'bold'] }),
    rating: custom('plugin::acme.stars', { min: 1, max: 5 }),
    // strapi-geodata, as strapi-tourisme.castagnicciacasinca.fr writes it
    place: custom('plugin::geodata.geojson', { options: { info: true } }),
    // strapi-code-editor-custom-field and strapi-plugin-auto-locales-slug, as strapi-grupobd writes them
    css: custom('plugin::strapi-code-editor-custom-field.code-editor-text'),
    data: custom('plugin::strapi-code-editor-custom-field.code-editor-json'),
    slug: custom('plugin::auto-locales-slug.auto-locales-slug'),
    // strapi-advanced-uuid (frameless/strapi-v5-sandbox) and strapi-auto-uuid-v5
    uuid: custom('plugin::strapi-advanced-uuid.uuid'),
    ref: custom('plugin::field-uuid.uuid'),
    // @opkod-france's rrule and opening-hours plugins (opkod-france/strapi-v5-playground)
    rule: custom('plugin::rrule.rrule'),
    hours: custom('plugin::opening-hours.opening-hours'),
    // strapi-plugin-dynamic-enumeration-field (BrightBrainsBr/Site)
    pick: custom('plugin::dynamic-enumeration.dynamic-field'),
    // @notum-cz/strapi-plugin-tiptap-editor, as Agorinfo/strapi-wesoft writes it: text, the editor's JSON as a string
    doc: custom('plugin::tiptap-editor.RichText'),
    // strapi-plugin-tagsinput, as acom-website-cms writes it
    labels: custom('plugin::tagsinput.tags'),
    // @sklinet/strapi-plugin-tinymce (SKLINET/strapi-boilerplate): rich text since its 1.1.4, not a 255-character string
    html: custom('plugin::tinymce.tinymce'),
    // @sklinet's video field (1.1.0 on, for Strapi 5) and form builder, as SKLINET/strapi-boilerplate writes them
    clip: custom('plugin::video-field.video'),
    answers: custom('plugin::form-builder.form-message-view'),
  },
});

describe('mapping', () => {
  it('known plugins map out of the box; config/custom-fields maps the others', async () => {
    const dir = project({ [SWATCH]: swatchType, 'config/custom-fields.json': '{ "plugin::acme.stars": "integer" }' });
    const { config } = await loadConfig(dir, SECRETS, { writeEnvFile: false });
    const attrs = loadModel(dir, { customFields: config.customFields }).contentTypes.get('api::swatch.swatch')!.attributes;
    expect([...attrs.values()].map((a) => [a.name, a.kind === 'scalar' ? a.type : a.kind])).toEqual([
      ['colour', 'string'],
      ['body', 'richtext'],
      ['moods', 'json'],
      ['rating', 'integer'],
      ['place', 'json'],
      ['css', 'text'],
      ['data', 'json'],
      ['slug', 'string'],
      ['uuid', 'uid'],
      ['ref', 'string'],
      ['rule', 'json'],
      ['hours', 'json'],
      ['pick', 'string'],
      ['doc', 'text'],
      ['labels', 'json'],
      ['html', 'richtext'],
      ['clip', 'json'],
      ['answers', 'json'],
    ]);
    // a project's mapping wins over the known one
    const over = project({ [SWATCH]: swatchType, 'config/custom-fields.js': 'module.exports = { "plugin::color-picker.color": "text", "plugin::acme.stars": "float" };' });
    const c2 = (await loadConfig(over, SECRETS, { writeEnvFile: false })).config;
    const a2 = loadModel(over, { customFields: c2.customFields }).contentTypes.get('api::swatch.swatch')!.attributes;
    expect(a2.get('colour')).toMatchObject({ type: 'text' });
    expect(a2.get('rating')).toMatchObject({ type: 'float' });
  });

  it('an unmapped custom field stops start-up naming the file, attribute, id and the config key that fixes it', () => {
    const dir = project({ [SWATCH]: swatchType });
    let e: unknown;
    try {
      loadModel(dir);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(SchemaError);
    expect((e as Error).message).toBe(
      `${SWATCH}: attribute "rating": custom field "plugin::acme.stars" is not known to Folio: map it in config/custom-fields (.json, .js or .ts) to the type its plugin stores, e.g. { "plugin::acme.stars": "string" } (one of string, text, richtext, blocks, json, enumeration, email, uid, date, time, datetime, integer, biginteger, float, decimal, boolean)`,
    );
  });

  it("an unmapped custom field of the project's own plugin is refused naming the type its server code registers (RateBox/Rate)", () => {
    const dir = project({
      [SWATCH]: swatchType,
      // the server registration names the stored type; the admin panel's names its input, and a built copy is not source
      'src/plugins/acme-fields/server/src/register.ts':
        "export default ({ strapi }) => {\n  strapi.customFields.register({\n    name: 'stars',\n    plugin: 'acme',\n    type: 'integer',\n  });\n};",
      'src/plugins/acme-fields/admin/src/index.ts': "app.customFields.register({ name: 'stars', pluginId: 'acme', type: 'string' });",
      'src/plugins/acme-fields/dist/server/index.js': "strapi.customFields.register({ name: 'stars', plugin: 'acme', type: 'text' });",
    });
    const e = loadError(dir);
    expect(e).toBeInstanceOf(SchemaError);
    expect((e as Error).message).toBe(
      `${SWATCH}: attribute "rating": custom field "plugin::acme.stars" is not known to Folio: src/plugins/acme-fields/server/src/register.ts registers it as "integer"; map it in config/custom-fields (.json, .js or .ts), e.g. { "plugin::acme.stars": "integer" }`,
    );
    // a registration without `plugin` is a global field in Strapi (`global::<name>`), even inside a plugin
    const unnamed = project({
      [SWATCH]: swatchType.replace('plugin::acme.stars', 'global::stars'),
      'src/plugins/ratings/server/register.js':
        "module.exports = ({ strapi }) => strapi.customFields.register([{ name: 'other', type: 'json' }, { name: 'stars', type: 'float' }]);",
    });
    expect(() => loadModel(unnamed)).toThrow(
      /src\/plugins\/ratings\/server\/register\.js registers it as "float"; map it in config\/custom-fields \(\.json, \.js or \.ts\), e\.g\. \{ "global::stars": "float" \}/,
    );
    // `plugin: pluginId` (and the shorthand `plugin,`), a local plugin's usual way: that plugin's own id, its folder
    for (const key of ['plugin: pluginId', 'plugin']) {
      const byVariable = project({
        [SWATCH]: swatchType.replace('plugin::acme.stars', 'plugin::ratings.stars'),
        'src/plugins/ratings/server/register.js': `const pluginId = 'ratings';\nconst plugin = pluginId;\nmodule.exports = ({ strapi }) => strapi.customFields.register({ name: 'stars', ${key}, type: 'float' });`,
      });
      expect(() => loadModel(byVariable), key).toThrow(
        /src\/plugins\/ratings\/server\/register\.js registers it as "float"; map it in config\/custom-fields \(\.json, \.js or \.ts\), e\.g\. \{ "plugin::ratings\.stars": "float" \}/,
      );
    }
  });

  it("an unmapped global custom field the app's own register declares is refused naming src/index and its type (Alexg10/no-fc-back)", () => {
    // no-fc-back registers `table-grid` in src/index.ts's register(), without a plugin: Strapi names it global::table-grid
    const dir = project({
      [SWATCH]: swatchType.replace('plugin::acme.stars', 'global::table-grid'),
      'src/index.ts':
        "export default {\n  register({ strapi }) {\n    strapi.customFields.register({\n      name: 'table-grid',\n      type: 'json',\n      inputSize: { default: 12, isResizable: true },\n    });\n  },\n  bootstrap() {},\n};",
      // the admin panel's registration names the input, not the stored type
      'src/admin/app.tsx': "export default { register(app) { app.customFields.register({ name: 'table-grid', type: 'string' }); } };",
    });
    const e = loadError(dir);
    expect(e).toBeInstanceOf(SchemaError);
    expect((e as Error).message).toBe(
      `${SWATCH}: attribute "rating": custom field "global::table-grid" is not known to Folio: src/index.ts registers it as "json"; map it in config/custom-fields (.json, .js or .ts), e.g. { "global::table-grid": "json" }`,
    );
  });

  it('a custom field without its id is a schema problem', () => {
    const dir = project({ [SWATCH]: swatchType.replace('"customField":"plugin::ckeditor5.CKEditor",', '') });
    expect(() => loadModel(dir, { customFields: new Map([['plugin::acme.stars', 'integer']]) })).toThrow(
      new SchemaError(SWATCH, 'body', 'a custom field needs "customField": "plugin::<plugin>.<name>"'),
    );
  });

  it('config/custom-fields refuses an id or a type it cannot use', async () => {
    const bad = async (text: string): Promise<string> => {
      const e = await loadConfig(project({ 'config/custom-fields.json': text }), SECRETS, { writeEnvFile: false }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    };
    expect(await bad('{ "plugin::acme.stars": "media" }')).toBe(
      'config/custom-fields: "plugin::acme.stars" must map to one of string, text, richtext, blocks, json, enumeration, email, uid, date, time, datetime, integer, biginteger, float, decimal, boolean, got "media"',
    );
    expect(await bad('{ "stars": "integer" }')).toBe('config/custom-fields: "stars" is not a custom field id such as plugin::color-picker.color');
  });
});

describe('over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dir = project({ [SWATCH]: swatchType });
    t = await startTestApp({ dir, customFields: new Map([['plugin::acme.stars', 'integer']]) });
  });
  afterAll(() => t?.close());

  const create = (data: Record<string, unknown>) => t.request('POST', '/api/swatches', { body: { data } });

  it('values keep their stored type in the JSON', async () => {
    const place = { lat: 42.4, lng: 9.4, geohash: 'spe2' };
    const code = { css: '__css__;.red { color: red }', data: { theme: 'red' }, slug: 'fr/rouge' };
    const r = await create({ colour: '#ff0000', body: '<p>Red</p>', moods: ['bold'], rating: 5, place, ...code });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toMatchObject({ colour: '#ff0000', body: '<p>Red</p>', moods: ['bold'], rating: 5, place, ...code });
    // the Tiptap RichText's JSON text comes back as the string sent; an object is a type error, as in Strapi
    const doc = JSON.stringify({ type: 'doc', content: [] });
    const tiptap = await create({ colour: '#123456', rating: 1, doc });
    expect(tiptap.status, tiptap.text).toBe(201);
    expect(tiptap.body.data.doc).toBe(doc);
    const asObject = await create({ colour: '#123456', rating: 1, doc: { type: 'doc' } });
    expect(asObject.status).toBe(400);
    expect(asObject.body.error.message).toBe('doc must be a `string` type, but the final value was: `{\n  "type": "\\"doc\\""\n}`.');
    expect((await t.request('DELETE', `/api/swatches/${tiptap.body.data.documentId}`)).status).toBe(204);
    // TinyMCE's HTML is rich text: longer than a string's 255 characters
    const html = `<p>${'x'.repeat(400)}</p>`;
    const tiny = await create({ colour: '#654321', rating: 1, html });
    expect(tiny.status, tiny.text).toBe(201);
    expect(tiny.body.data.html).toBe(html);
    expect((await t.request('DELETE', `/api/swatches/${tiny.body.data.documentId}`)).status).toBe(204);
    expect((await create({ colour: '#00ff00', moods: ['calm', 'bold'], rating: 2 })).status).toBe(201);
    expect((await create({ colour: '#0000ff', rating: 4 })).status).toBe(201);
  });

  it("validation is the stored type's: required, regex, integer bounds", async () => {
    const missing = await create({ rating: 3 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'colour must be defined.',
      details: { errors: [{ path: ['colour'], message: 'colour must be defined.', name: 'ValidationError', value: undefined }] },
    });
    const pattern = await create({ colour: 'red' });
    expect(pattern.status).toBe(400);
    expect(pattern.body.error.details.errors[0]).toMatchObject({ path: ['colour'], name: 'ValidationError' });
    const tooHigh = await create({ colour: '#123456', rating: 6 });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error.details.errors[0]).toMatchObject({ path: ['rating'], message: 'rating must be less than or equal to 5' });
    const notInt = await create({ colour: '#123456', rating: 'five' });
    expect(notInt.status).toBe(400);
    expect(notInt.body.error.details.errors[0]).toMatchObject({ path: ['rating'] });
  });

  it('filters and sort work as on the stored type', async () => {
    const colours = (r: { body: { data: { colour: string }[] } }): string[] => r.body.data.map((d) => d.colour);
    expect(colours(await t.get('/api/swatches?sort=rating:desc'))).toEqual(['#ff0000', '#0000ff', '#00ff00']);
    expect(colours(await t.get('/api/swatches?filters[rating][$gte]=4&sort=rating'))).toEqual(['#0000ff', '#ff0000']);
    expect(colours(await t.get('/api/swatches?filters[colour][$startsWith]=%2300'))).toEqual(['#00ff00', '#0000ff']);
    expect(colours(await t.get('/api/swatches?filters[body][$containsi]=red'))).toEqual(['#ff0000']);
    // an operator the stored type doesn't take is refused as on that type
    const bad = await t.get('/api/swatches?filters[rating][$gte]=many');
    expect(bad.status).toBe(400);
  });
});
