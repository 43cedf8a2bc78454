// The body generator the real-project tests rely on (model-bodies.ts) makes bodies the server
// accepts for schemas with a `regex`, a dynamic zone's `max` and a private required field.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType, ScalarAttribute } from '../../src/schema/types.js';
import { writeFiles } from '../schema/write-files.js';
import { EXAMPLE_DIR, startTestApp, type TestApp } from './app.js';
import { createBody, localeBody } from './model-bodies.js';

const piece = (name: string, attributes: Record<string, unknown>): string => JSON.stringify({ collectionName: `components_kit_${name}`, info: { displayName: name }, attributes });

const FILES = {
  'src/api/gadget/content-types/gadget/schema.json': JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'gadget', pluralName: 'gadgets' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      code: { type: 'string', required: true, regex: '^[A-Z]{3}-[0-9]{2}$', pluginOptions: { i18n: { localized: true } } },
      color: { type: 'string', regex: '^#[0-9a-fA-F]{6}$', maxLength: 7 },
      phone: { type: 'text', regex: '^\\+?[0-9 ]{8,15}$', minLength: 9 },
      internal: { type: 'string', private: true, required: true, pluginOptions: { i18n: { localized: true } } },
      secretCount: { type: 'integer', private: true, required: true, min: 3 },
      parts: { type: 'dynamiczone', components: ['kit.alpha', 'kit.beta', 'kit.gamma'], max: 1, pluginOptions: { i18n: { localized: true } } },
      extras: { type: 'dynamiczone', components: ['kit.alpha', 'kit.beta', 'kit.gamma'], min: 2, max: 2 },
    },
  }),
  'src/components/kit/alpha.json': piece('alpha', { sku: { type: 'string', regex: '^SKU[0-9]+$', required: true } }),
  'src/components/kit/beta.json': piece('beta', { label: { type: 'string' } }),
  'src/components/kit/gamma.json': piece('gamma', { size: { type: 'integer', max: 5 } }),
};

let t: TestApp;
let dir: string;
let gadget: ContentType;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-bodies-'));
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, FILES);
  t = await startTestApp({ dir });
  gadget = t.app.services.model.contentTypes.get('api::gadget.gadget')!;
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createBody', () => {
  it('fills regex fields with text the pattern matches, within their length bounds', () => {
    const body = createBody(t.app.services.model, gadget);
    for (const name of ['code', 'color', 'phone']) {
      const a = gadget.attributes.get(name) as ScalarAttribute;
      expect(body[name], name).toMatch(new RegExp(a.regex!));
    }
    expect(
      (body['parts'] as { sku?: string }[])
        .concat(body['extras'] as never)
        .filter((e) => 'sku' in e)
        .every((e) => /^SKU[0-9]+$/.test(e.sku!)),
    ).toBe(true);
  });

  it("puts at most a dynamic zone's max entries in it, and at least its min", () => {
    const body = createBody(t.app.services.model, gadget);
    expect((body['parts'] as unknown[]).length).toBe(1);
    expect((body['extras'] as unknown[]).length).toBe(2);
  });

  it('fills private required fields', () => {
    const body = createBody(t.app.services.model, gadget);
    expect(typeof body['internal']).toBe('string');
    expect(body['secretCount']).toBe(3);
  });

  it('makes a body the server creates (and publishes) a document from, and a locale body it accepts', async () => {
    const created = await t.request('POST', '/api/gadgets', { body: { data: createBody(t.app.services.model, gadget) } });
    expect(created.status, created.text).toBe(201);
    const fr = await t.request('PUT', `/api/gadgets/${String(created.body.data.documentId)}?locale=fr`, { body: { data: localeBody(t.app.services.model, gadget) } });
    expect(fr.status, fr.text).toBe(200);
  });
});
