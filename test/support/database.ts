// A fresh database for one test file on the dialect CI selects with DATABASE_CLIENT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DatabaseConfig } from '../../src/database/connect.js';

export interface TestDatabase {
  readonly config: DatabaseConfig;
  drop(): Promise<void>;
}

export function testClient(): DatabaseConfig['client'] {
  const c = process.env['DATABASE_CLIENT'] ?? 'sqlite';
  if (c !== 'sqlite' && c !== 'postgres' && c !== 'mysql') throw new Error(`DATABASE_CLIENT=${c}: expected sqlite, postgres or mysql`);
  return c;
}

function server(client: 'postgres' | 'mysql'): { host: string; port: number; user: string; password: string } {
  return {
    host: process.env['DATABASE_HOST'] ?? '127.0.0.1',
    port: Number(process.env['DATABASE_PORT'] ?? (client === 'postgres' ? 5432 : 3306)),
    user: process.env['DATABASE_USERNAME'] ?? (client === 'postgres' ? 'postgres' : 'root'),
    password: process.env['DATABASE_PASSWORD'] ?? '',
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const client = testClient();
  if (client === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'folio-test-'));
    return { config: { client, filename: join(dir, 'data.db') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `folio_t_${randomBytes(6).toString('hex')}`;
  const conn = server(client);
  if (client === 'postgres') {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ ...conn, database: 'postgres' });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    return {
      config: { client, ...conn, database: name, poolMax: 4 },
      drop: async () => {
        const a = new pg.Client({ ...conn, database: 'postgres' });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const mysql = await import('mysql2/promise');
  const admin = await mysql.createConnection({ ...conn });
  await admin.query(`create database ${name} character set utf8mb4 collate utf8mb4_bin`);
  await admin.end();
  return {
    config: { client, ...conn, database: name, poolMax: 4 },
    drop: async () => {
      const a = await mysql.createConnection({ ...conn });
      await a.query(`drop database if exists ${name}`);
      await a.end();
    },
  };
}
