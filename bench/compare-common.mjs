// What the differential scripts (compare-queries, compare-writes) share: the two servers from the
// environment, a seeded random source so a seed repeats its requests, and the example app's schemas.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'blog', 'src');

/** FOLIO, FOLIO_TOKEN, STRAPI, STRAPI_TOKEN, each required */
export function servers(env) {
  for (const k of ['FOLIO', 'FOLIO_TOKEN', 'STRAPI', 'STRAPI_TOKEN']) if (!env[k]) throw new Error(`${k} is required (see the header of the script)`);
  return { folio: { base: env.FOLIO, token: env.FOLIO_TOKEN }, strapi: { base: env.STRAPI, token: env.STRAPI_TOKEN } };
}

/** xorshift32 from `seed`: the same requests for the same seed */
export function seededRandom(seed) {
  let state = Number(seed) >>> 0 || 1;
  const rnd = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  return { rnd, pick: (list) => list[Math.floor(rnd() * list.length)] };
}

/** the example app's content types (by uid) and components (by `category.name`), as their schema files say */
export function exampleSchemas() {
  const types = new Map();
  for (const api of readdirSync(join(app, 'api'))) {
    for (const ct of readdirSync(join(app, 'api', api, 'content-types'))) {
      types.set(`api::${api}.${ct}`, JSON.parse(readFileSync(join(app, 'api', api, 'content-types', ct, 'schema.json'), 'utf8')));
    }
  }
  const components = new Map();
  for (const category of readdirSync(join(app, 'components'))) {
    for (const file of readdirSync(join(app, 'components', category))) {
      components.set(`${category}.${file.replace(/\.json$/, '')}`, JSON.parse(readFileSync(join(app, 'components', category, file), 'utf8')));
    }
  }
  return { types, components };
}
