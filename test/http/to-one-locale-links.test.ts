// A to-one owner without locales linking the locale versions of a localized document, both with draft &
// publish (faggin-foundation's videos and their themes). Written from the theme's side, a link goes live
// when the theme's version is published, and only that version's links do. Every answer below is the
// reference Strapi 5.54's to the same steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/api/video-theme/content-types/video-theme/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'video_themes',
    info: { singularName: 'video-theme', pluralName: 'video-themes' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      videos: { type: 'relation', relation: 'oneToMany', target: 'api::video.video', mappedBy: 'theme' },
    },
  }),
  'src/api/video/content-types/video/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'videos',
    info: { singularName: 'video', pluralName: 'videos' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, theme: { type: 'relation', relation: 'manyToOne', target: 'api::video-theme.video-theme', inversedBy: 'videos' } },
  }),
};

let t: TestApp;
const id: Record<string, string> = {};
beforeAll(async () => {
  t = await startExampleWith(FILES);
  id['theme'] = await writeDocument(t, 'POST', '/api/video-themes', { name: 'T en' });
  id['draftTheme'] = await writeDocument(t, 'POST', '/api/video-themes?status=draft', { name: 'T2 draft' });
  id['v'] = await writeDocument(t, 'POST', '/api/videos', { title: 'V', theme: id['theme'] });
  id['w'] = await writeDocument(t, 'POST', '/api/videos', { title: 'W', theme: id['theme'] });
  // V's draft moves to the draft-only theme; its published version keeps the English one
  await writeDocument(t, 'PUT', `/api/video-themes/${id['draftTheme']}?status=draft`, { videos: [id['v']] });
  // the theme's French version, published, takes both videos
  await writeDocument(t, 'PUT', `/api/video-themes/${id['theme']}?locale=fr`, { name: 'T fr', videos: [id['v'], id['w']] });
});
afterAll(async () => {
  await t?.close();
});

const titles = async (path: string) => ((await t.get(path)).body.data.videos as { title: string }[]).map((v) => v.title);
const themeOf = async (path: string) => ((await t.get(path)).body.data.theme as { name: string } | null)?.name ?? null;

describe('a to-one owner without locales linking two locale versions', () => {
  it("publishing the theme's French version leaves the published videos' links to its English version in place", async () => {
    expect(await titles(`/api/video-themes/${id['theme']}?populate[videos][fields][0]=title`)).toEqual(['V', 'W']);
    expect(await titles(`/api/video-themes/${id['theme']}?locale=fr&populate[videos][fields][0]=title`)).toEqual(['V', 'W']);
    expect(await titles(`/api/video-themes/${id['draftTheme']}?status=draft&populate[videos][fields][0]=title`)).toEqual([]);
  });

  it('a video read without a locale shows the first version it links, the English one', async () => {
    expect(await themeOf(`/api/videos/${id['v']}?populate[theme][fields][0]=name`)).toBe('T en');
    expect(await themeOf(`/api/videos/${id['w']}?populate[theme][fields][0]=name`)).toBe('T en');
    expect(await themeOf(`/api/videos/${id['v']}?status=draft&populate[theme][fields][0]=name`)).toBe('T fr');
  });
});
