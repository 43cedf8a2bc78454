// The configuration `folio start` and `folio develop` serve with: --port and --host over the files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveConfig } from '../../src/cli/serve.js';
import { copyProject, type Project } from './helpers.js';

let project: Project;
const saved = { ...process.env };

beforeAll(async () => {
  project = await copyProject();
  Object.assign(process.env, project.env);
  delete process.env['PUBLIC_URL'];
  delete process.env['PORT'];
});
afterAll(async () => {
  process.env = saved;
  await project.remove();
});

describe('serveConfig', () => {
  it('a public URL derived from the port follows --port, so mailed links name the port served', async () => {
    // found on `folio start --port N` with email confirmation: the link said :1337
    expect((await serveConfig(project.dir, {}, true)).publicUrl).toBe('http://localhost:1337');
    const c = await serveConfig(project.dir, { port: '4567' }, true);
    expect(c).toMatchObject({ port: 4567, publicUrl: 'http://localhost:4567' });
  });

  it('a configured public URL stays as written whatever --port says', async () => {
    process.env['PUBLIC_URL'] = 'https://cms.example';
    try {
      expect((await serveConfig(project.dir, { port: '4567' }, true)).publicUrl).toBe('https://cms.example');
    } finally {
      delete process.env['PUBLIC_URL'];
    }
  });
});
