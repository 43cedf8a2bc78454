// Start-up never drops what the schema files no longer have, and says what it kept: a removed
// attribute's column, a removed type's tables.
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyProject, ensureBuilt, spawnFolio, type Project } from './helpers.js';

let project: Project;
beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
});
afterAll(() => project.remove());

async function start(workers = 1): Promise<string> {
  const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1', '--workers', String(workers)]);
  try {
    await server.waitFor(/Folio listening/);
  } finally {
    expect(await server.stop()).toBe(0);
  }
  return server.stderr();
}

it('a removed type and a removed attribute are kept and named at the next start', async () => {
  const gadget = join(project.dir, 'src', 'api', 'gadget');
  mkdirSync(join(gadget, 'content-types', 'gadget'), { recursive: true });
  const schema = {
    kind: 'collectionType',
    collectionName: 'gadgets',
    info: { singularName: 'gadget', pluralName: 'gadgets' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, article: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' } },
  };
  writeFileSync(join(gadget, 'content-types', 'gadget', 'schema.json'), JSON.stringify(schema));
  const tagFile = join(project.dir, 'src', 'api', 'tag', 'content-types', 'tag', 'schema.json');
  const tag = JSON.parse(readFileSync(tagFile, 'utf8')) as { attributes: Record<string, unknown> };
  tag.attributes['motto'] = { type: 'string' };
  writeFileSync(tagFile, JSON.stringify(tag));
  expect(await start()).not.toContain('Kept');

  rmSync(gadget, { recursive: true });
  delete tag.attributes['motto'];
  writeFileSync(tagFile, JSON.stringify(tag));
  const kept = async (workers: number): Promise<string[]> =>
    (await start(workers))
      .split('\n')
      .filter((l) => l.startsWith('Kept'))
      .sort();
  const lines = await kept(1);
  // several processes say it once
  expect(await kept(2)).toEqual(lines);
  expect(lines).toEqual([
    'Kept column tags.motto: the schema no longer has it (data is never dropped)',
    'Kept table gadgets: the schema no longer has its type, relation or components (data is never dropped)',
    'Kept table gadgets_article_lnk: the schema no longer has its type, relation or components (data is never dropped)',
    'Kept table gadgets_cmps: the schema no longer has its type, relation or components (data is never dropped)',
  ]);
});
