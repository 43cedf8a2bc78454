// A project whose collection, attribute and component names make table and column names past what
// PostgreSQL keeps (63) and MySQL takes (64): the names are Strapi 5's shortened ones (read from the
// database Strapi 5.54 made for these same schema files), the project starts and serves on every
// dialect, and a database an earlier Folio made under the whole names is renamed, not left behind.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import { syncSchema } from '../../src/database/sync.js';
import { modelTables } from '../../src/database/tables.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR, startTestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { writeFiles } from './write-files.js';

const AFFILIATION = 'research_programme_participating_institution_affiliations';
const COUNT_ATTRIBUTE = 'numberOfParticipatingResearchersAcrossAllPartnerInstitutionsWorld';
const FILES = {
  'src/api/programme-affiliation/content-types/programme-affiliation/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: AFFILIATION,
    info: { singularName: 'programme-affiliation', pluralName: 'programme-affiliations' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      [COUNT_ATTRIBUTE]: { type: 'integer' },
      responsibleCoordinatingInstitutionPrincipalInvestigators: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      leadingInstitution: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
      details: { type: 'component', component: 'longnames.extraordinarily-long-component-name', repeatable: true },
    },
  }),
  'src/api/board-member/content-types/board-member/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'conference_proceedings_editorial_board_members',
    info: { singularName: 'board-member', pluralName: 'board-members' },
    options: { draftAndPublish: true },
    attributes: {
      name: { type: 'string' },
      associatedPeerReviewedPublications: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      affiliation: { type: 'relation', relation: 'manyToOne', target: 'api::programme-affiliation.programme-affiliation' },
      quote: { type: 'component', component: 'shared.quote' },
    },
  }),
  'src/components/longnames/extraordinarily-long-component-name.json': JSON.stringify({
    collectionName: 'components_longnames_extraordinarily_long_component_names_here',
    info: { displayName: 'Extraordinarily long component name' },
    attributes: {
      label: { type: 'string' },
      taggedWith: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
      inner: { type: 'component', component: 'shared.link', repeatable: true },
    },
  }),
};

/** the tables (and the shortened column) Strapi 5.54 made for FILES */
const STRAPI_TABLES = [
  'research_programme_participating_institution_affilcbab5',
  'research_programme_participating_institution_cbab5_cmps',
  'research_programme_p6b49e_responsible_coordinaf23a3_lnk',
  'research_programme_partici6b49e_leading_institution_lnk',
  'conference_proceedings_editorial_board_members',
  'conference_proceedings_editorial_board_members_cmps',
  'conference_proceedin541f3_associated_peer_revi91ad8_lnk',
  'conference_proceedings_editorial_b541f3_affiliation_lnk',
  'components_longnames_extraordinarily_long_componenfe500',
  'components_longnames_extraordinarily_long_comfe500_cmps',
  'components_longnames_extraordinari34aeb_tagged_with_lnk',
];
const STRAPI_COLUMN = 'number_of_participating_researchers_across_all_par7c65b';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-long-names-'));
  made.push(dir);
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, FILES);
  return dir;
}

describe('names past 55 characters', () => {
  it("are Strapi 5's shortened table and column names", () => {
    const tables = modelTables(loadModel(project()));
    const names = tables.map((t) => t.name);
    expect(STRAPI_TABLES.filter((n) => !names.includes(n))).toEqual([]);
    expect(names.filter((n) => n.length > 55)).toEqual([]);
    const affiliations = tables.find((t) => t.name === STRAPI_TABLES[0])!;
    expect(affiliations.columns.map((c) => c.name)).toContain(STRAPI_COLUMN);
  });

  it('a project with them starts, writes and reads its entries, relations and components', async () => {
    const t = await startTestApp({ dir: project() });
    try {
      const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'physics' } } });
      const category = await t.request('POST', '/api/categories', { body: { data: { name: 'Labs' } } });
      expect([tag.status, category.status]).toEqual([201, 201]);
      const data = {
        title: 'CERN',
        [COUNT_ATTRIBUTE]: 12000,
        responsibleCoordinatingInstitutionPrincipalInvestigators: [tag.body.data.documentId],
        leadingInstitution: category.body.data.documentId,
        details: [{ label: 'd', taggedWith: [tag.body.data.documentId], inner: [{ label: 'site', url: 'https://home.cern' }] }],
      };
      const created = await t.request('POST', '/api/programme-affiliations', { body: { data } });
      expect(created.status, created.text).toBe(201);
      const member = await t.request('POST', '/api/board-members', {
        body: { data: { name: 'Ada', associatedPeerReviewedPublications: [tag.body.data.documentId], affiliation: created.body.data.documentId, quote: { title: 'q' } } },
      });
      expect(member.status, member.text).toBe(201);
      const list = await t.get(
        `/api/programme-affiliations?filters[${COUNT_ATTRIBUTE}][$gt]=100&sort=${COUNT_ATTRIBUTE}:desc&populate[responsibleCoordinatingInstitutionPrincipalInvestigators]=true&populate[leadingInstitution]=true&populate[details][populate]=*`,
      );
      expect(list.status, list.text).toBe(200);
      expect(list.body.data).toMatchObject([
        {
          title: 'CERN',
          [COUNT_ATTRIBUTE]: 12000,
          responsibleCoordinatingInstitutionPrincipalInvestigators: [{ label: 'physics' }],
          leadingInstitution: { name: 'Labs' },
          details: [{ label: 'd', taggedWith: [{ label: 'physics' }], inner: [{ label: 'site', url: 'https://home.cern' }] }],
        },
      ]);
      const members = await t.get(`/api/board-members?filters[affiliation][${COUNT_ATTRIBUTE}][$eq]=12000&populate=*&status=draft`);
      expect(members.body.data).toMatchObject([{ name: 'Ada', associatedPeerReviewedPublications: [{ label: 'physics' }], affiliation: { title: 'CERN' }, quote: { title: 'q' } }]);
    } finally {
      await t.close();
    }
  });

  it('a database an earlier Folio made under the whole names is renamed, its rows kept, at the next start', async () => {
    const model = loadModel(project());
    const db = await createTestDatabase();
    const database = await connect(db.config);
    try {
      await syncSchema(database, model);
      const short = STRAPI_TABLES[0]!;
      await sql`insert into ${sql.table(short)} (document_id, title, ${sql.ref(STRAPI_COLUMN)}) values ('d1', 'kept', 7)`.execute(database.db);
      // as an earlier version named them (MySQL refuses names past 64, so it never made the longer ones)
      const wholeColumn = 'number_of_participating_researchers_across_all_partner_institutions_world';
      const whole = new Map([
        [short, AFFILIATION],
        ['research_programme_participating_institution_cbab5_cmps', `${AFFILIATION}_cmps`],
        ['research_programme_p6b49e_responsible_coordinaf23a3_lnk', `${AFFILIATION}_responsible_coordinating_institution_principal_investigators_lnk`],
      ]);
      const fits = (n: string): boolean => database.dialect.name !== 'mysql' || n.length <= 64;
      for (const [now, was] of whole) if (fits(was)) await database.db.schema.alterTable(now).renameTo(was).execute();
      if (fits(wholeColumn)) await database.db.schema.alterTable(AFFILIATION).renameColumn(STRAPI_COLUMN, wholeColumn).execute();
      const report = await syncSchema(database, model);
      const renamed = [...whole].filter(([, was]) => fits(was)).map(([now]) => now);
      expect(report.createdTables.filter((n) => renamed.includes(n))).toEqual([]);
      expect(report.renamed.length).toBe(renamed.length + (fits(wholeColumn) ? 1 : 0));
      const rows = await sql<{ title: string; n: number }>`select title, ${sql.ref(STRAPI_COLUMN)} as n from ${sql.table(short)}`.execute(database.db);
      expect(rows.rows.map((r) => [r.title, Number(r.n)])).toEqual([['kept', 7]]);
      const tables = new Set((await database.db.introspection.getTables()).map((x) => x.name));
      expect([...whole.values()].filter((n) => tables.has(n) || tables.has(n.slice(0, 63)))).toEqual([]);
      // the indexes named after the whole name are replaced by those named after the short one
      const indexes = (await database.dialect.indexNames.execute(database.db)).rows.map((r) => r.name);
      expect(indexes.filter((n) => n.startsWith(AFFILIATION.slice(0, 51)))).toEqual([]);
      expect(indexes.filter((n) => n.startsWith(short.slice(0, 54))).length).toBeGreaterThan(0);
    } finally {
      await database.db.destroy();
      await db.drop();
    }
  });
});
