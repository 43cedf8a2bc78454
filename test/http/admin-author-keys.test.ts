// `createdBy` and `updatedBy` (the admin panel's users to Strapi; Folio has none) are refused in
// filters, sort and populate (fields: see sort-paths.test.ts). Strapi first walks the names a query gives below them, against its
// admin user, role and permission types, and reports an unknown name or a password there before the
// private relation itself; each body here is the one the reference Strapi 5.54 answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const invalidKey = (key: string, path: string | null, param: string): unknown => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
    details: { key, path, source: 'query', param },
  },
});

type Case = [query: string, key: string, path: string | null];

const expectCases = async (param: string, cases: readonly Case[]): Promise<void> => {
  for (const [q, key, path] of cases) expect((await t.get(`/api/articles?${q}`)).body, q).toEqual(invalidKey(key, path, param));
};

describe('below createdBy and updatedBy', () => {
  it('a sort names an unknown name at its parent, then a password, before the private relation', async () => {
    await expectCases('sort', [
      ['sort=createdBy.x', 'x', 'createdBy'],
      ['sort=createdBy.roles.x', 'x', 'createdBy.roles'],
      ['sort=createdBy.roles:asc', 'asc', 'createdBy.roles'],
      ['sort[createdBy][roles]=asc', 'asc', 'createdBy.roles'],
      ['sort=author.createdBy.x', 'x', 'author.createdBy'],
      ['sort=createdBy.password.x', 'password', 'createdBy.password'],
      ['sort=createdBy.roles.users.password', 'password', 'createdBy.roles.users.password'],
      ['sort=updatedBy.firstname', 'updatedBy', 'updatedBy'],
      ['sort=createdBy.firstname.x', 'createdBy', 'createdBy'],
      ['sort=createdBy.roles', 'createdBy', 'createdBy'],
    ]);
  });

  it('a filter names an unknown name or operator at its parent, then a password', async () => {
    await expectCases('filters', [
      ['filters[createdBy][x]=1', 'x', 'createdBy'],
      ['filters[createdBy][$or][0][x]=1', 'x', 'createdBy'],
      ['filters[$or][0][createdBy][x]=1', 'x', 'createdBy'],
      ['filters[createdBy][firstname][x]=1', 'x', 'createdBy.firstname'],
      ['filters[createdBy][firstname][$foo]=1', '$foo', 'createdBy.firstname'],
      ['filters[createdBy][roles][permissions][x]=1', 'x', 'createdBy.roles.permissions'],
      ['filters[createdBy][localizations][x]=1', 'x', 'createdBy.localizations'],
      ['filters[author][createdBy][x]=1', 'x', 'author.createdBy'],
      ['filters[createdBy][password]=1', 'password', 'createdBy.password'],
      ['filters[createdBy][firstname][$eq]=x', 'createdBy', 'createdBy'],
      ['filters[createdBy][id][$null]=true', 'createdBy', 'createdBy'],
      ['filters[updatedBy]=1', 'updatedBy', 'updatedBy'],
    ]);
  });

  it('a populate is refused at its whole path, after the names below it', async () => {
    await expectCases('populate', [
      ['populate[createdBy]=true', 'createdBy', 'createdBy'],
      ['populate[createdBy][fields][0]=firstname', 'createdBy', 'createdBy'],
      ['populate[author][populate]=createdBy', 'createdBy', 'author.createdBy'],
      ['populate[author][populate][createdBy]=true', 'createdBy', 'author.createdBy'],
      ['populate[localizations][populate]=createdBy', 'createdBy', 'localizations.createdBy'],
      ['populate=createdBy.x', 'x', 'createdBy.x'],
      ['populate=createdBy.password', 'password', 'createdBy.password'],
      ['populate=createdBy.roles', 'createdBy', 'createdBy'],
      ['populate[createdBy]=x', 'x', 'createdBy'],
      ['populate[createdBy][fields][0]=x', 'x', null],
      ['populate[createdBy][fields][0]=password', 'password', 'password'],
      ['populate[createdBy][sort]=x', 'x', null],
      ['populate[createdBy][filters][password]=1', 'password', 'password'],
      ['populate[createdBy][fields]=password&populate[createdBy][populate][x]=true', 'password', 'password'],
      ['populate[createdBy][populate][x]=true', 'x', 'createdBy'],
      ['populate[createdBy][populate]=x', 'x', 'x'],
      ['populate[createdBy][populate][firstname]=true', 'firstname', 'createdBy.populate.firstname'],
      ['populate[createdBy][populate][roles]=true', 'roles', 'createdBy.roles'],
      ['populate[createdBy][populate][roles][populate][x]=true', 'x', 'createdBy.roles'],
      ['populate[createdBy][on][x]=true', 'x', 'createdBy.on.x'],
    ]);
  });
});
