// Models and small helpers for the write-input tests: the example blog, plus a throw-away project
// with the constraints the blog doesn't use (writable:false, max, minLength, item counts…).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALLOW_ALL, type Ability } from '../../../src/auth/ability.js';
import { ApplicationError, ValidationError } from '../../../src/errors.js';
import { loadModel } from '../../../src/schema/load-model.js';
import type { Component, ContentType, Model } from '../../../src/schema/types.js';
import { checkWriteData } from '../../../src/documents/input/check-write-data.js';
import type { WriteData } from '../../../src/documents/input/types.js';

export const BLOG_DIR = fileURLToPath(new URL('../../../examples/blog', import.meta.url));
export const blog: Model = loadModel(BLOG_DIR);

function writeJson(path: string, json: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(json));
}

function buildLab(): Model {
  const root = mkdtempSync(join(tmpdir(), 'folio-input-'));
  writeJson(join(root, 'src/api/gadget/content-types/gadget/schema.json'), {
    kind: 'collectionType',
    info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string', required: true, minLength: 3 },
      serial: { type: 'string', writable: false },
      level: { type: 'integer', min: 1, max: 10 },
      ratio: { type: 'float', max: 1.5 },
      price: { type: 'decimal', min: 0, max: 1000 },
      big: { type: 'biginteger', min: 0, max: 5000 },
      code: { type: 'uid' },
      sku: { type: 'uid', regex: '^[A-Z]{3}$' },
      secret: { type: 'password' },
      settings: { type: 'json', required: true },
      content: { type: 'blocks' },
      releasedOn: { type: 'date', required: true },
      opensAt: { type: 'time' },
      seenAt: { type: 'timestamp' },
      active: { type: 'boolean', required: true },
      parts: { type: 'component', component: 'lab.part', repeatable: true, min: 1, max: 2 },
      main: { type: 'component', component: 'lab.part', required: true },
      panels: { type: 'dynamiczone', components: ['lab.part'], min: 1, max: 2, required: true },
      owner: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
    },
  });
  writeJson(join(root, 'src/api/author/content-types/author/schema.json'), {
    kind: 'collectionType',
    info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
    options: { draftAndPublish: true },
    attributes: { name: { type: 'string', required: true }, rank: { type: 'integer', required: true }, facts: { type: 'json', required: true } },
  });
  writeJson(join(root, 'src/components/lab/part.json'), {
    info: { displayName: 'Part' },
    attributes: {
      label: { type: 'string', required: true },
      stamp: { type: 'string', writable: false },
      inner: { type: 'component', component: 'lab.inner' },
    },
  });
  writeJson(join(root, 'src/components/lab/inner.json'), {
    info: { displayName: 'Inner' },
    attributes: { note: { type: 'string', required: true }, count: { type: 'integer' } },
  });
  return loadModel(root);
}

export const lab: Model = buildLab();

export function contentType(model: Model, uid: string): ContentType {
  const t = model.contentTypes.get(uid);
  if (!t) throw new Error(`no content type ${uid}`);
  return t;
}

export function component(model: Model, uid: string): Component {
  const c = model.components.get(uid);
  if (!c) throw new Error(`no component ${uid}`);
  return c;
}

export const article = contentType(blog, 'api::article.article');
export const author = contentType(blog, 'api::author.author');
export const tag = contentType(blog, 'api::tag.tag');
export const homepage = contentType(blog, 'api::homepage.homepage');
export const gadget = contentType(lab, 'api::gadget.gadget');

/** The model a schema object belongs to (blog or lab). */
export function modelOf(schema: ContentType | Component): Model {
  return lab.contentTypes.get(schema.uid) === schema || lab.components.get(schema.uid) === schema ? lab : blog;
}

/** An ability holding exactly these actions. */
export function abilityOf(...actions: string[]): Ability {
  return { can: (a) => actions.includes(a) };
}

export function check(data: unknown, schema: ContentType | Component = article, model: Model = modelOf(schema), ability: Ability = ALLOW_ALL): WriteData {
  return checkWriteData({ model, ability }, schema, data);
}

export interface Caught {
  readonly name: string;
  readonly status: number;
  readonly message: string;
  readonly details: unknown;
}

/** The error `fn` throws, as the error handler would render it; fails when nothing or a non-Folio error is thrown. */
export function caught(fn: () => unknown): Caught {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ApplicationError)) throw e;
    return { name: e.name, status: e.status, message: e.message, details: e.details };
  }
  throw new Error('expected an error, none was thrown');
}

/** The error checkWriteData throws for `data`, asserting it is a ValidationError. */
export function rejection(data: unknown, schema: ContentType | Component = article, model: Model = modelOf(schema), ability: Ability = ALLOW_ALL): Caught {
  const c = caught(() => check(data, schema, model, ability));
  if (c.name !== new ValidationError('x').name) throw new Error(`expected a ValidationError, got ${c.name}: ${c.message}`);
  return c;
}
