// What `folio start` says about a Strapi project it is given: every schema problem at once (exit 1),
// and once, what under src/ it doesn't run; config/*.ts and config/custom-fields.ts take effect.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project } from '../cli/helpers.js';
import { writeFiles } from './write-files.js';

const TAG = 'src/api/tag/content-types/tag/schema.json';
let project: Project;
let tagSchema: string;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
  tagSchema = readFileSync(join(project.dir, TAG), 'utf8');
});
afterAll(() => project.remove());

function setTagAttributes(attributes: Record<string, unknown>): void {
  const schema = JSON.parse(tagSchema) as { attributes: Record<string, unknown> };
  writeFileSync(join(project.dir, TAG), JSON.stringify({ ...schema, attributes: { ...schema.attributes, ...attributes } }));
}

describe('folio start on a Strapi project', () => {
  it('lists every schema problem, an unmapped custom field among them, and exits 1', () => {
    setTagAttributes({
      hue: { type: 'customField', customField: 'plugin::acme.hue' },
      weight: { type: 'numbr' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::nope.nope' },
    });
    try {
      const r = folio(project, ['start', '--port', '0']);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        [
          'Found 3 problems in the schema files:',
          `  ${TAG}: attribute "hue": custom field "plugin::acme.hue" is not known to Folio: map it in config/custom-fields (.json, .js or .ts) to the type its plugin stores, e.g. { "plugin::acme.hue": "string" } (one of string, text, richtext, blocks, json, enumeration, email, uid, date, time, datetime, integer, biginteger, float, decimal, boolean)`,
          `  ${TAG}: attribute "weight": unknown type "numbr"`,
          `  ${TAG}: attribute "parent": relation target "api::nope.nope" does not exist`,
          '',
        ].join('\n'),
      );
    } finally {
      writeFileSync(join(project.dir, TAG), tagSchema);
    }
  });

  it('with TypeScript config and a custom field mapped there it serves, saying once what it does not run', async () => {
    setTagAttributes({ hue: { type: 'customField', customField: 'plugin::acme.hue' } });
    // a TypeScript project has config/api.ts in place of the example's api.json (which would come first)
    rmSync(join(project.dir, 'config', 'api.json'));
    writeFiles(project.dir, {
      'config/custom-fields.ts': "const fields: Record<string, string> = { 'plugin::acme.hue': 'string' };\nexport default fields;\n",
      'config/api.ts': "export default ({ env }) => ({ rest: { defaultLimit: env.int('PAGE_SIZE', 25) } });\n",
      'src/index.ts': 'export default { register() {}, bootstrap() {} };\n',
      'src/api/tag/controllers/tag.ts':
        "import { factories } from '@strapi/strapi';\nexport default factories.createCoreController('api::tag.tag', () => ({ async find() { return []; } }));\n",
      'src/api/tag/services/tag.ts': "import { factories } from '@strapi/strapi';\n\nexport default factories.createCoreService('api::tag.tag');\n",
    });
    const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], { PAGE_SIZE: '1' });
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      expect(server.stdout()).toContain(
        ['Not run by Folio (see README, "Bringing a Strapi project"):', '  src/index.ts: register/bootstrap hooks', '  src/api/tag/controllers/tag.ts: custom controller', ''].join(
          '\n',
        ),
      );
      expect(server.stdout().split('Not run by Folio').length).toBe(2);
      const key = folio(project, ['api-token', 'create', '--name', 'ts', '--type', 'full-access']).stdout.trim();
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${m[1]}/api/tags`;
      for (const hue of ['red', 'blue']) expect((await fetch(base, { method: 'POST', headers, body: JSON.stringify({ data: { label: hue, hue } }) })).status).toBe(201);
      const page = (await (await fetch(`${base}?filters[hue][$eq]=blue`, { headers })).json()) as { data: { hue: string }[]; meta: { pagination: { pageSize: number } } };
      expect(page.data.map((d) => d.hue)).toEqual(['blue']);
      // config/api.ts with env.int took effect
      expect(page.meta.pagination.pageSize).toBe(1);
    } finally {
      expect(await server.stop()).toBe(0);
      writeFileSync(join(project.dir, TAG), tagSchema);
    }
  });
});
