// The database connection from Strapi's DATABASE_* variables, with a Strapi-layout config/database
// file (`{ connection: { client, connection: {…}, pool: {…} } }`) laid over it when the project has one.
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import type { DatabaseConfig } from '../database/connect.js';
import { isObj, type Obj } from './config-files.js';
import type { Env } from './strapi-env.js';
import { envBool, envInt, fileInt, fileString } from './values.js';

type Client = DatabaseConfig['client'];

// knex's driver names, which Strapi projects use, mean the same dialects
const CLIENTS: Readonly<Record<string, Client>> = {
  sqlite: 'sqlite',
  'better-sqlite3': 'sqlite',
  sqlite3: 'sqlite',
  postgres: 'postgres',
  postgresql: 'postgres',
  pg: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
  mariadb: 'mysql',
};

function client(name: string, key: string): Client {
  const c = CLIENTS[name.trim().toLowerCase()];
  if (!c) throw new ConfigError(`${key} must be sqlite, postgres or mysql, got "${name}"`);
  return c;
}

function fromEnv(dir: string, env: Env, c: Client): DatabaseConfig {
  if (c === 'sqlite') return { client: c, filename: resolve(dir, env['DATABASE_FILENAME'] || join('.tmp', 'data.db')) };
  return {
    client: c,
    url: env['DATABASE_URL'] || undefined,
    host: env['DATABASE_HOST'] || '127.0.0.1',
    port: envInt(env, 'DATABASE_PORT', c === 'postgres' ? 5432 : 3306, 1, 65535),
    database: env['DATABASE_NAME'] || 'folio',
    user: env['DATABASE_USERNAME'] || (c === 'postgres' ? 'postgres' : 'root'),
    password: env['DATABASE_PASSWORD'] ?? '',
    schema: env['DATABASE_SCHEMA'] || undefined,
    ssl: envBool(env, 'DATABASE_SSL', false),
    poolMax: envInt(env, 'DATABASE_POOL_MAX', 10, 1),
    preparedStatements: envBool(env, 'DATABASE_PREPARED_STATEMENTS', true),
  };
}

function overlay(dir: string, base: DatabaseConfig, conn: Obj, pool: Obj): DatabaseConfig {
  const k = (name: string): string => `database.connection.connection.${name}`;
  if (base.client === 'sqlite') {
    const filename = fileString(conn['filename'], k('filename'));
    return filename ? { ...base, filename: resolve(dir, filename) } : base;
  }
  const out: DatabaseConfig = { ...base };
  const url = fileString(conn['connectionString'] ?? conn['uri'], k('connectionString'));
  if (url) out.url = url;
  const host = fileString(conn['host'], k('host'));
  if (host) out.host = host;
  if (conn['port'] !== undefined) out.port = fileInt(conn['port'], k('port'), 0, 1, 65535);
  const database = fileString(conn['database'], k('database'));
  if (database) out.database = database;
  const user = fileString(conn['user'] ?? conn['username'], k('user'));
  if (user) out.user = user;
  const password = fileString(conn['password'], k('password'));
  if (password !== undefined) out.password = password;
  const schema = fileString(conn['schema'], k('schema'));
  if (schema) out.schema = schema;
  // Strapi's template gives `ssl: env.bool('DATABASE_SSL') && { …certificates }`
  if (conn['ssl'] !== undefined) out.ssl = Boolean(conn['ssl']);
  if (pool['max'] !== undefined) out.poolMax = fileInt(pool['max'], 'database.connection.pool.max', 10, 1);
  // node-postgres' setting, which a Strapi project on PostgreSQL passes through knex; 0 is no bound
  if (conn['statement_timeout'] !== undefined) out.statementTimeout = fileInt(conn['statement_timeout'], k('statement_timeout'), 0, 0, 2_147_483_647);
  return out;
}

/**
 * The client a DATABASE_URL names by its scheme (`postgres://…`, `mysql://…`), for when DATABASE_CLIENT
 * is not set: such a URL alone was ignored, and the project's SQLite file served instead.
 */
function clientOfUrl(url: string | undefined): string | undefined {
  const scheme = /^([a-z0-9+]+):\/\//i.exec(url?.trim() ?? '')?.[1]?.toLowerCase();
  return scheme !== undefined && CLIENTS[scheme] !== undefined && CLIENTS[scheme] !== 'sqlite' ? scheme : undefined;
}

export function databaseConfig(dir: string, env: Env, file: Obj): DatabaseConfig {
  const section = isObj(file['connection']) ? file['connection'] : {};
  const fileClient = fileString(section['client'], 'database.connection.client');
  const c =
    fileClient !== undefined ? client(fileClient, 'database.connection.client') : client(env['DATABASE_CLIENT'] || clientOfUrl(env['DATABASE_URL']) || 'sqlite', 'DATABASE_CLIENT');
  const conn = isObj(section['connection']) ? section['connection'] : {};
  const pool = isObj(section['pool']) ? section['pool'] : {};
  return overlay(dir, fromEnv(dir, env, c), conn, pool);
}
