// src/extensions/<plugin>/content-types/<name>/schema.json as Strapi reads it: a relation whose partner
// lives in the user extension resolves both ways, and upload's file type takes extra attributes.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/schema/load-model.js';
import { project } from '../config/helpers.js';
import { EXAMPLE_DIR, startTestApp, type TestApp } from '../support/app.js';
import { field, filePart, form } from '../upload/helpers.js';
import { writeFiles } from './write-files.js';

const NOTE = 'src/api/note/content-types/note/schema.json';
const USER_EXT = 'src/extensions/users-permissions/content-types/user/schema.json';
const FILE_EXT = 'src/extensions/upload/content-types/file/schema.json';
const FILES = {
  [NOTE]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'note', pluralName: 'notes' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      writer: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'notes' },
    },
  }),
  [USER_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users' },
    attributes: { notes: { type: 'relation', relation: 'oneToMany', target: 'api::note.note', mappedBy: 'writer' } },
  }),
  [FILE_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files' },
    attributes: { credit: { type: 'string', maxLength: 40 } },
  }),
};

describe('extensions in the model', () => {
  it('pairs a relation with its partner in an extension, sharing one link table', () => {
    const model = loadModel(project(FILES));
    const writer = model.contentTypes.get('api::note.note')!.attributes.get('writer')!;
    const notes = model.contentTypes.get('plugin::users-permissions.user')!.attributes.get('notes')!;
    // Strapi's names: a type without collectionName is named after its singularName
    expect(writer).toMatchObject({ kind: 'relation', owner: true, inverse: 'notes', linkTable: 'note_writer_lnk' });
    expect(notes).toMatchObject({ kind: 'relation', owner: false, inverse: 'writer', linkTable: 'note_writer_lnk' });
    expect(model.contentTypes.get('plugin::upload.file')!.attributes.get('credit')).toMatchObject({ kind: 'scalar', type: 'string', maxLength: 40 });
  });

  it('a partner missing from the extension leaves the relation one-way, as Strapi serves it, and start-up says so', () => {
    const model = loadModel(project({ ...FILES, [USER_EXT]: JSON.stringify({ attributes: {} }) }));
    expect(model.contentTypes.get('api::note.note')!.attributes.get('writer')).toMatchObject({ kind: 'relation', owner: true, inverse: undefined });
    expect(model.notices).toEqual([`${NOTE}: attribute "writer": "inversedBy: notes" names no attribute of plugin::users-permissions.user; it is served as a one-way relation`]);
  });

  it('a partner that is no relation back is named as the problem', () => {
    const dir = project({ ...FILES, [USER_EXT]: JSON.stringify({ attributes: { notes: { type: 'string' } } }) });
    expect(() => loadModel(dir)).toThrow(
      `${NOTE}: attribute "writer": "inversedBy: notes" needs a matching relation "notes" on plugin::users-permissions.user pointing back with "mappedBy: writer"`,
    );
  });
});

describe('extensions over HTTP', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-ext-'));
    cpSync(EXAMPLE_DIR, dir, { recursive: true });
    writeFiles(dir, FILES);
    t = await startTestApp({ dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a note written with its writer is found from both sides', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'ann', email: 'ann@example.com', password: 'secret123' } });
    expect(reg.status, reg.text).toBe(200);
    const user = reg.body.user as { id: number; documentId: string };
    const note = await t.request('POST', '/api/notes', { body: { data: { title: 'First', writer: user.documentId } } });
    expect(note.status, note.text).toBe(201);
    const fromNote = await t.get(`/api/notes/${note.body.data.documentId}?populate=writer`);
    expect(fromNote.body.data.writer).toMatchObject({ documentId: user.documentId, username: 'ann' });
    const fromUser = await t.get(`/api/users/${user.id}?populate=notes`);
    expect(fromUser.body.notes).toEqual([expect.objectContaining({ title: 'First' })]);
  });

  it("upload's file type has the extension's attribute: stored, returned and filterable", async () => {
    const up = await t.request('POST', '/api/upload', { raw: form([filePart('hello', 'hello.txt', 'text/plain'), field('fileInfo', { name: 'hello.txt' })]) });
    expect(up.status, up.text).toBe(201);
    const file = (up.body as { id: number; credit: unknown }[])[0]!;
    expect(file).toHaveProperty('credit', null);
    const found = await t.get('/api/upload/files?filters[credit][$null]=true');
    expect(found.status, found.text).toBe(200);
    expect((found.body as { id: number }[]).map((f) => f.id)).toContain(file.id);
  });
});

/** upload's file schema as projects copied it before Strapi added focalPoint (all else as now) */
const OLDER_FILE_SCHEMA = {
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File', description: '' },
  options: {},
  attributes: {
    name: { type: 'string', configurable: false, required: true },
    alternativeText: { type: 'string', configurable: false },
    caption: { type: 'string', configurable: false },
    width: { type: 'integer', configurable: false },
    height: { type: 'integer', configurable: false },
    formats: { type: 'json', configurable: false },
    hash: { type: 'string', configurable: false, required: true },
    ext: { type: 'string', configurable: false },
    mime: { type: 'string', configurable: false, required: true },
    size: { type: 'decimal', configurable: false, required: true },
    url: { type: 'string', configurable: false, required: true },
    previewUrl: { type: 'string', configurable: false },
    provider: { type: 'string', configurable: false, required: true },
    provider_metadata: { type: 'json', configurable: false },
    related: { type: 'relation', relation: 'morphToMany', configurable: false },
    folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
    folderPath: { type: 'string', min: 1, required: true, private: true, searchable: false },
  },
};

/** the keys of a file object as Strapi 5.54 answers them with the older schema restated: no focalPoint */
const OLDER_FILE_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'isUrlSigned',
];

describe('an upload extension restating the file schema without focalPoint', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-ext-'));
    cpSync(EXAMPLE_DIR, dir, { recursive: true });
    writeFiles(dir, { [FILE_EXT]: JSON.stringify(OLDER_FILE_SCHEMA) });
    t = await startTestApp({ dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the focalPoint key out of every file object, as Strapi 5.54 does (a focalPoint sent is ignored)', async () => {
    const up = await t.request('POST', '/api/upload', {
      raw: form([filePart('hello', 'hello.txt', 'text/plain'), field('fileInfo', { name: 'hello.txt', focalPoint: { x: 1, y: 2 } })]),
    });
    expect(up.status, up.text).toBe(201);
    const file = (up.body as Record<string, unknown>[])[0]!;
    expect(Object.keys(file)).toEqual(OLDER_FILE_KEYS);
    expect(Object.keys((await t.get(`/api/upload/files/${String(file['id'])}`)).body)).toEqual(OLDER_FILE_KEYS);
    expect((await t.get('/api/upload/files')).body.map((f: Record<string, unknown>) => Object.keys(f))).toEqual([OLDER_FILE_KEYS]);
    const updated = await t.request('POST', `/api/upload?id=${String(file['id'])}`, { raw: form([field('fileInfo', { caption: 'c', focalPoint: { x: 3, y: 4 } })]) });
    expect(updated.status, updated.text).toBe(200);
    expect([Object.keys(updated.body), updated.body.caption]).toEqual([OLDER_FILE_KEYS, 'c']);
    const author = await t.request('POST', '/api/authors?populate=avatar', { body: { data: { name: 'Ann', avatar: file['id'] } } });
    expect(author.status, author.text).toBe(201);
    // a populated file has no isUrlSigned, as in Strapi
    expect(Object.keys(author.body.data.avatar)).toEqual(OLDER_FILE_KEYS.filter((k) => k !== 'isUrlSigned'));
  });

  it('an extension that only adds attributes keeps focalPoint', () => {
    const model = loadModel(project({ [FILE_EXT]: JSON.stringify({ attributes: { credit: { type: 'string' } } }) }));
    expect([...model.contentTypes.get('plugin::upload.file')!.attributes.keys()]).toContain('focalPoint');
    const older = loadModel(project({ [FILE_EXT]: JSON.stringify(OLDER_FILE_SCHEMA) }));
    expect([...older.contentTypes.get('plugin::upload.file')!.attributes.keys()]).not.toContain('focalPoint');
  });
});
