// The commands start-up prints for a newcomer carry the database settings the server runs with:
// without them a command opens the project's SQLite file, not that database.
import { describe, expect, it } from 'vitest';
import { serverEnvPrefix } from '../../src/cli/first-steps.js';

describe('the database settings before a printed command', () => {
  it('names every DATABASE_* set, quoting what a shell would split, and never a password', () => {
    expect(serverEnvPrefix({ DATABASE_CLIENT: 'postgres', DATABASE_NAME: 'site', DATABASE_PASSWORD: 's3cret', HOME: '/root' })).toBe(
      'DATABASE_CLIENT=postgres DATABASE_NAME=site DATABASE_PASSWORD=… ',
    );
    // one set empty is named empty: without it a config's own default (env('DATABASE_PASSWORD', 'strapi')) would be used
    expect(serverEnvPrefix({ DATABASE_CLIENT: 'mysql', DATABASE_PASSWORD: '', DATABASE_SCHEMA: '' })).toBe("DATABASE_CLIENT=mysql DATABASE_PASSWORD='' DATABASE_SCHEMA='' ");
    expect(serverEnvPrefix({ DATABASE_FILENAME: "my db's.db" })).toBe(`DATABASE_FILENAME='my db'\\''s.db' `);
    expect(serverEnvPrefix({ DATABASE_URL: 'postgres://app:s3cret@db:5432/site' })).toBe("DATABASE_URL='postgres://app:…@db:5432/site' ");
  });

  it('in production names the secrets the server took from its environment, never their values', () => {
    expect(serverEnvPrefix({ NODE_ENV: 'production', API_TOKEN_SALT: 'salt', JWT_SECRET: 'jwt', APP_KEYS: 'a,b', DATABASE_CLIENT: 'postgres' })).toBe(
      'NODE_ENV=production API_TOKEN_SALT=… JWT_SECRET=… APP_KEYS=… DATABASE_CLIENT=postgres ',
    );
    expect(serverEnvPrefix({ API_TOKEN_SALT: 'salt' })).toBe('');
  });

  it('is empty where the server runs on its defaults', () => {
    expect(serverEnvPrefix({ PATH: '/usr/bin' })).toBe('');
  });
});
