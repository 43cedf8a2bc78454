// Table and column names with digits, hyphens and acronyms are Strapi 5's: lodash's snake_case splits
// digits from letters (`address1` → `address_1`) and acronyms from words (`SEOTitle` → `seo_title`), a
// content type without collectionName is named after its singularName, and link tables are named from
// the snake_case of the table and the attribute. The expected names are those Strapi 5 made for these
// same schema files (SQLite, read with `.schema`). A database an earlier Folio made under its own names
// is renamed at the next start, its rows kept and served.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { connect } from '../../src/database/connect.js';
import { modelTables } from '../../src/database/tables.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR, testConfig } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { writeFiles } from './write-files.js';

const FILES = {
  'src/api/gadget-item/content-types/gadget-item/schema.json': JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'gadget-item', pluralName: 'gadget-items', displayName: 'Gadget item' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      address1: { type: 'string' },
      h2Title: { type: 'string' },
      v2: { type: 'integer' },
      abc123def: { type: 'string' },
      SEOTitle: { type: 'string' },
      myURLField: { type: 'string' },
      place1st: { type: 'string' },
      size3d: { type: 'string', unique: true },
      _hidden5: { type: 'string' },
      relatedTags2: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      owner1: { type: 'relation', relation: 'manyToOne', target: 'api::gadget-owner.gadget-owner', inversedBy: 'gadgets3' },
      specs3: { type: 'component', component: 'gadget-parts.part2-spec', repeatable: true },
      blocks4: { type: 'dynamiczone', components: ['gadget-parts.part2-spec'] },
    },
  }),
  'src/api/gadget-owner/content-types/gadget-owner/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'gadget-owners2',
    info: { singularName: 'gadget-owner', pluralName: 'gadget-owners', displayName: 'Gadget owner' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      HTMLBody: { type: 'text' },
      gadgets3: { type: 'relation', relation: 'oneToMany', target: 'api::gadget-item.gadget-item', mappedBy: 'owner1' },
      bestGadget1: { type: 'relation', relation: 'oneToOne', target: 'api::gadget-item.gadget-item' },
    },
  }),
  'src/components/gadget-parts/part2-spec.json': JSON.stringify({
    collectionName: 'components_gadget_parts_part2_specs',
    info: { displayName: 'Part2 spec' },
    attributes: {
      label: { type: 'string' },
      x1Y2: { type: 'integer' },
      tag1: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
      inner1: { type: 'component', component: 'shared.link', repeatable: true },
    },
  }),
};

/** the row tables Strapi 5 made for FILES and their columns, less `created_by_id`/`updated_by_id` (admin users, which Folio does not keep) */
const STRAPI_ROW_TABLES: Record<string, string[]> = {
  'gadget-item': [
    'id',
    'document_id',
    'title',
    'address_1',
    'h_2_title',
    'v_2',
    'abc_123_def',
    'seo_title',
    'my_url_field',
    'place_1st',
    'size_3_d',
    'hidden_5',
    'created_at',
    'updated_at',
    'published_at',
    'locale',
  ],
  'gadget-owners2': ['id', 'document_id', 'name', 'html_body', 'created_at', 'updated_at', 'published_at', 'locale'],
  components_gadget_parts_part2_specs: ['id', 'label', 'x_1_y_2'],
};
/** the components and link tables Strapi 5 made for FILES */
const STRAPI_OTHER_TABLES = [
  'gadget-item_cmps',
  'components_gadget_parts_part2_specs_cmps',
  'gadget_item_related_tags_2_lnk',
  'gadget_item_owner_1_lnk',
  'gadget_owners_2_best_gadget_1_lnk',
  'components_gadget_parts_part_2_specs_tag_1_lnk',
];

/** what an earlier Folio named them: new name → earlier name */
const EARLIER_TABLES = new Map([
  ['gadget-item', 'gadget_items'],
  ['gadget-item_cmps', 'gadget_items_cmps'],
  ['gadget_item_related_tags_2_lnk', 'gadget_items_related_tags2_lnk'],
  ['gadget_item_owner_1_lnk', 'gadget_items_owner1_lnk'],
  ['gadget_owners_2_best_gadget_1_lnk', 'gadget-owners2_best_gadget1_lnk'],
  ['components_gadget_parts_part_2_specs_tag_1_lnk', 'components_gadget_parts_part2_specs_tag1_lnk'],
]);
/** table (new name) → new column → earlier column */
const EARLIER_COLUMNS = new Map([
  [
    'gadget-item',
    new Map([
      ['address_1', 'address1'],
      ['h_2_title', 'h2_title'],
      ['v_2', 'v2'],
      ['abc_123_def', 'abc123def'],
      ['seo_title', 'seotitle'],
      ['my_url_field', 'my_urlfield'],
      ['place_1st', 'place1st'],
      ['size_3_d', 'size3d'],
      ['hidden_5', '_hidden5'],
    ]),
  ],
  ['gadget-owners2', new Map([['html_body', 'htmlbody']])],
  ['components_gadget_parts_part2_specs', new Map([['x_1_y_2', 'x1_y2']])],
]);

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-strapi-names-'));
  made.push(dir);
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, FILES);
  return dir;
}

const GADGET = {
  title: 'Lamp',
  address1: 'Main St 1',
  h2Title: 'Bright',
  v2: 2,
  abc123def: 'abc',
  SEOTitle: 'Lamp | Shop',
  myURLField: 'https://example.com/lamp',
  place1st: 'gold',
  size3d: '10x10x20',
  _hidden5: 'h',
};

let tokens = 0;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read by shape
type Json = any;

/** a token and a JSON request against an app that is not listening */
async function client(app: App): Promise<(method: 'GET' | 'POST', url: string, body?: unknown) => Promise<{ status: number; body: Json }>> {
  const token = (await app.services.tokens.create({ name: `names-${++tokens}`, type: 'full-access' })).accessKey;
  return async (method, url, body) => {
    const res = await app.fastify.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: res.statusCode, body: res.json() };
  };
}

/** writes a gadget with an owner, tags, components and a zone entry; reads it back */
async function writeGadget(app: App): Promise<void> {
  const call = await client(app);
  const tag = await call('POST', '/api/tags', { data: { label: 'warm' } });
  const owner = await call('POST', '/api/gadget-owners', { data: { name: 'Ada', HTMLBody: '<p>hi</p>' } });
  expect([tag.status, owner.status]).toEqual([201, 201]);
  const spec = { label: 's', x1Y2: 12, tag1: tag.body.data.documentId, inner1: [{ label: 'doc', url: 'https://example.com' }] };
  const gadget = await call('POST', '/api/gadget-items?status=published', {
    data: {
      ...GADGET,
      relatedTags2: [tag.body.data.documentId],
      owner1: owner.body.data.documentId,
      specs3: [spec],
      blocks4: [{ __component: 'gadget-parts.part2-spec', ...spec }],
    },
  });
  expect(gadget.status, JSON.stringify(gadget.body)).toBe(201);
  const best = await call('POST', '/api/gadget-owners', { data: { name: 'Bo', bestGadget1: gadget.body.data.documentId } });
  expect(best.status).toBe(201);
}

/** what a client reads of the gadget and its owners */
async function readGadget(app: App): Promise<void> {
  const call = await client(app);
  const list = await call(
    'GET',
    '/api/gadget-items?filters[address1][$eq]=Main%20St%201&sort=h2Title:asc&populate[relatedTags2]=true&populate[owner1]=true&populate[specs3][populate]=*&populate[blocks4][populate]=*',
  );
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const spec = { label: 's', x1Y2: 12, tag1: { label: 'warm' }, inner1: [{ label: 'doc', url: 'https://example.com' }] };
  expect(list.body.data).toMatchObject([
    {
      ...GADGET,
      relatedTags2: [{ label: 'warm' }],
      owner1: { name: 'Ada', HTMLBody: '<p>hi</p>' },
      specs3: [spec],
      blocks4: [{ __component: 'gadget-parts.part2-spec', ...spec }],
    },
  ]);
  const owners = await call('GET', '/api/gadget-owners?populate=*&sort=name');
  expect(owners.body.data).toMatchObject([
    { name: 'Ada', gadgets3: [{ title: 'Lamp' }], bestGadget1: null },
    { name: 'Bo', gadgets3: [], bestGadget1: { title: 'Lamp' } },
  ]);
  const unique = await call('POST', '/api/gadget-items', { data: { title: 'Copy', size3d: GADGET.size3d } });
  expect(unique.status).toBe(400);
}

describe("names with digits, hyphens and acronyms are Strapi 5's", () => {
  it('for tables, columns, components tables and link tables', () => {
    const tables = modelTables(loadModel(project()));
    const columnsOf = new Map(tables.map((t) => [t.name, t.columns.map((c) => c.name)]));
    for (const [table, columns] of Object.entries(STRAPI_ROW_TABLES)) expect(columnsOf.get(table), table).toEqual(columns);
    expect(STRAPI_OTHER_TABLES.filter((n) => !columnsOf.has(n))).toEqual([]);
  });

  it("leave the example app's names as they were", () => {
    const tables = modelTables(loadModel(EXAMPLE_DIR));
    expect(tables.filter((t) => t.formerly).map((t) => t.name)).toEqual([]);
    expect(tables.flatMap((t) => t.columns.filter((c) => c.formerly).map((c) => `${t.name}.${c.name}`))).toEqual([]);
  });

  it('a project with them writes and reads its entries, relations and components', async () => {
    const db = await createTestDatabase();
    const app = await createApp(testConfig(db.config, { dir: project() }));
    try {
      await writeGadget(app);
      await readGadget(app);
    } finally {
      await app.close();
      await db.drop();
    }
  });

  it('a database an earlier Folio made under its own names is renamed at the next start, its rows kept and served', async () => {
    const dir = project();
    const db = await createTestDatabase();
    try {
      const first = await createApp(testConfig(db.config, { dir }));
      try {
        await writeGadget(first);
      } finally {
        await first.close();
      }
      // back to the names an earlier Folio gave them, and the unique column's index named after its earlier column
      const database = await connect(db.config);
      try {
        for (const [table, columns] of EARLIER_COLUMNS) for (const [now, was] of columns) await database.db.schema.alterTable(table).renameColumn(now, was).execute();
        const drop = database.db.schema.dropIndex('gadget-item_size_3_d_idx');
        await (database.dialect.dropIndexOnTable ? drop.on('gadget-item') : drop).execute();
        await database.db.schema.createIndex('gadget-item_size3d_idx').on('gadget-item').column('size3d').execute();
        for (const [now, was] of EARLIER_TABLES) await database.db.schema.alterTable(now).renameTo(was).execute();
        const tables = new Set((await database.db.introspection.getTables()).map((t) => t.name));
        expect([...EARLIER_TABLES.keys()].filter((n) => tables.has(n))).toEqual([]);
      } finally {
        await database.db.destroy();
      }

      const next = await createApp(testConfig(db.config, { dir }));
      try {
        const columns = [...EARLIER_COLUMNS].flatMap(([table, cols]) => [...cols].map(([now, was]) => `${table}.${was} → ${table}.${now}`));
        const tables = [...EARLIER_TABLES].map(([now, was]) => `${was} → ${now}`);
        expect([...next.sync.renamed].sort()).toEqual([...tables, ...columns].sort());
        expect(next.sync.createdTables.filter((n) => EARLIER_TABLES.has(n) || n in STRAPI_ROW_TABLES)).toEqual([]);
        await readGadget(next);
        const indexes = (await next.database.dialect.indexNames.execute(next.database.db)).rows.map((r) => r.name);
        expect(indexes.filter((n) => n.startsWith('gadget-item_size'))).toEqual(['gadget-item_size_3_d_idx']);
        const left = (await next.database.db.introspection.getTables()).map((t) => t.name).filter((n) => [...EARLIER_TABLES.values()].includes(n));
        expect(left).toEqual([]);
        const rows = await sql<{ n: number }>`select count(*) as n from ${sql.table('gadget_item_related_tags_2_lnk')}`.execute(next.database.db);
        expect(Number(rows.rows[0]!.n)).toBe(2);
      } finally {
        await next.close();
      }
    } finally {
      await db.drop();
    }
  });
});

/** a type without collectionName (table `post`, which an earlier Folio named `posts`) beside a type whose collectionName is `posts` */
const NAME_TAKEN = {
  'src/api/post/content-types/post/schema.json': JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, slug: { type: 'uid' } },
  }),
  'src/api/note/content-types/note/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { body: { type: 'string' }, slug: { type: 'uid' } },
  }),
};

describe('a table whose earlier name is another table’s name', () => {
  it('keeps the other table’s indexes at every start', async () => {
    const dir = project();
    writeFiles(dir, NAME_TAKEN);
    const db = await createTestDatabase();
    try {
      const indexesOf = async (app: App, table: string): Promise<string[]> =>
        (await app.database.dialect.indexNames.execute(app.database.db)).rows
          // PostgreSQL's primary key index (`posts_pkey`) is the table's own, not the model's
          .filter((r) => r.table === table && r.name.startsWith(`${table}_`) && r.name !== `${table}_pkey`)
          .map((r) => r.name)
          .sort();
      const wanted = (app: App, table: string): string[] =>
        modelTables(app.model)
          .find((t) => t.name === table)!
          .indexes.map((i) => i.name)
          .sort();
      for (let start = 1; start <= 3; start++) {
        const app = await createApp(testConfig(db.config, { dir }));
        try {
          expect(app.sync.renamed).toEqual([]);
          expect(wanted(app, 'posts')).toContain('posts_slug_idx');
          expect(await indexesOf(app, 'posts'), `start ${start}`).toEqual(wanted(app, 'posts'));
          expect(await indexesOf(app, 'post'), `start ${start}`).toEqual(wanted(app, 'post'));
          const call = await client(app);
          expect((await call('POST', '/api/notes', { data: { body: `n${start}`, slug: `s${start}` } })).status).toBe(201);
          expect((await call('POST', '/api/posts', { data: { title: `p${start}`, slug: `s${start}` } })).status).toBe(201);
        } finally {
          await app.close();
        }
      }
    } finally {
      await db.drop();
    }
  });

  it('a table found under both its name and an earlier one is reported, and the earlier is left as it is', async () => {
    const dir = project();
    const db = await createTestDatabase();
    try {
      const first = await createApp(testConfig(db.config, { dir }));
      await first.close();
      // an earlier version's process, still running, made its table again
      const database = await connect(db.config);
      try {
        await database.db.schema.createTable('gadget_items').addColumn('id', 'integer').addColumn('title', 'varchar(255)').execute();
        await database.db.insertInto('gadget_items').values({ id: 1, title: 'old' }).execute();
      } finally {
        await database.db.destroy();
      }
      const next = await createApp(testConfig(db.config, { dir }));
      try {
        expect(next.sync.earlierKept).toEqual(['gadget_items → gadget-item']);
        expect(next.sync.renamed).toEqual([]);
        const rows = await sql<{ title: string }>`select title from ${sql.table('gadget_items')}`.execute(next.database.db);
        expect(rows.rows).toEqual([{ title: 'old' }]);
      } finally {
        await next.close();
      }
    } finally {
      await db.drop();
    }
  });
});

const DIGIT_FIRST = {
  'src/api/model-file/content-types/model-file/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'model_files',
    info: { singularName: 'model-file', pluralName: 'model-files', displayName: 'Model file' },
    options: { draftAndPublish: false },
    attributes: {
      '3dModel': { type: 'string' },
      '2ndTag': { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag' },
      '1stPart': { type: 'component', component: 'shared.link' },
    },
  }),
};

describe('attribute names that start with a digit', () => {
  it('are served as Strapi serves them, their column in lodash snake_case', async () => {
    const dir = project();
    writeFiles(dir, DIGIT_FIRST);
    const db = await createTestDatabase();
    try {
      const app = await createApp(testConfig(db.config, { dir }));
      try {
        const table = modelTables(app.model).find((t) => t.name === 'model_files')!;
        expect(table.columns.map((c) => c.name)).toContain('3_d_model');
        expect(modelTables(app.model).map((t) => t.name)).toContain('model_files_2nd_tag_lnk');
        const call = await client(app);
        const tag = await call('POST', '/api/tags', { data: { label: 'cad' } });
        for (const name of ['cube', 'sphere']) {
          const made = await call('POST', '/api/model-files', {
            data: { '3dModel': name, '2ndTag': tag.body.data.documentId, '1stPart': { label: name, url: `https://example.com/${name}` } },
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
        }
        const list = await call(
          'GET',
          '/api/model-files?filters[3dModel][$eq]=sphere&fields[0]=3dModel&populate[2ndTag][fields][0]=label&populate[1stPart]=true&sort=3dModel:desc',
        );
        expect(list.status, JSON.stringify(list.body)).toBe(200);
        expect(list.body.data).toHaveLength(1);
        expect(list.body.data[0]).toMatchObject({ '3dModel': 'sphere', '2ndTag': { label: 'cad' }, '1stPart': { label: 'sphere' } });
        expect(Object.keys(list.body.data[0]).filter((k) => /^\d/.test(k))).toEqual(['3dModel', '2ndTag', '1stPart']);
        const sorted = await call('GET', '/api/model-files?sort=3dModel:desc&fields[0]=3dModel');
        expect(sorted.body.data.map((d: { '3dModel': string }) => d['3dModel'])).toEqual(['sphere', 'cube']);
        const wrong = await call('POST', '/api/model-files', { data: { '3dModel': 5 } });
        expect(wrong.status).toBe(400);
        expect(wrong.body.error.details.errors[0].path).toEqual(['3dModel']);
      } finally {
        await app.close();
      }
    } finally {
      await db.drop();
    }
  });
});
