// The `env` helper Strapi passes to config functions (`({ env }) => ({ port: env.int('PORT', 1337) })`),
// so a Strapi project's config/*.js files evaluate unchanged. Same coercions as Strapi's env-helper.

export type Env = Record<string, string | undefined>;

export interface StrapiEnv {
  (key: string): string | undefined;
  <T>(key: string, defaultValue: T): string | T;
  int<T = undefined>(key: string, defaultValue?: T): number | T;
  float<T = undefined>(key: string, defaultValue?: T): number | T;
  bool<T = undefined>(key: string, defaultValue?: T): boolean | T;
  json<T = undefined>(key: string, defaultValue?: T): unknown;
  array<T = undefined>(key: string, defaultValue?: T): string[] | T;
  date<T = undefined>(key: string, defaultValue?: T): Date | T;
  oneOf<T = undefined>(key: string, expected: readonly unknown[], defaultValue?: T): unknown;
}

export function strapiEnv(env: Env): StrapiEnv {
  const has = (key: string): boolean => env[key] !== undefined;
  const raw = (key: string): string => env[key] ?? '';
  function read(key: string, defaultValue?: unknown): unknown {
    return has(key) ? raw(key) : defaultValue;
  }
  return Object.assign(read as StrapiEnv, {
    int: <T>(key: string, d?: T) => (has(key) ? parseInt(raw(key), 10) : (d as T)),
    float: <T>(key: string, d?: T) => (has(key) ? parseFloat(raw(key)) : (d as T)),
    bool: <T>(key: string, d?: T) => (has(key) ? raw(key) === 'true' : (d as T)),
    json: <T>(key: string, d?: T): unknown => {
      if (!has(key)) return d;
      try {
        return JSON.parse(raw(key)) as unknown;
      } catch (e) {
        throw new Error(`Invalid json environment variable ${key}: ${(e as Error).message}`, { cause: e });
      }
    },
    array: <T>(key: string, d?: T) => {
      if (!has(key)) return d as T;
      let v = raw(key);
      if (v.startsWith('[') && v.endsWith(']')) v = v.slice(1, -1);
      return v.split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
    },
    date: <T>(key: string, d?: T) => (has(key) ? new Date(raw(key)) : (d as T)),
    oneOf: <T>(key: string, expected: readonly unknown[], d?: T): unknown => {
      const v = has(key) ? raw(key) : d;
      return expected.includes(v) ? v : d;
    },
  });
}
