// The commands start-up prints for a newcomer carry the database settings the server runs with:
// without them a command opens the project's SQLite file, not that database.
import { describe, expect, it } from 'vitest';
import { databaseEnvPrefix } from '../../src/cli/first-steps.js';

describe('the database settings before a printed command', () => {
  it('names every DATABASE_* set, quoting what a shell would split, and never a password', () => {
    expect(databaseEnvPrefix({ DATABASE_CLIENT: 'postgres', DATABASE_NAME: 'site', DATABASE_PASSWORD: 's3cret', HOME: '/root', DATABASE_SCHEMA: '' })).toBe(
      'DATABASE_CLIENT=postgres DATABASE_NAME=site DATABASE_PASSWORD=… ',
    );
    expect(databaseEnvPrefix({ DATABASE_FILENAME: "my db's.db" })).toBe(`DATABASE_FILENAME='my db'\\''s.db' `);
    expect(databaseEnvPrefix({ DATABASE_URL: 'postgres://app:s3cret@db:5432/site' })).toBe("DATABASE_URL='postgres://app:…@db:5432/site' ");
  });

  it('is empty where the server runs on its defaults', () => {
    expect(databaseEnvPrefix({ PATH: '/usr/bin' })).toBe('');
  });
});
