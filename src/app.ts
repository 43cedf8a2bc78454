// Builds a Folio application: model, database, services and the HTTP server, ready to listen.
import type { FastifyInstance } from 'fastify';
import type { FolioConfig } from './config/types.js';
import type { Database } from './database/dialect.js';
import type { Model } from './schema/types.js';

export interface App {
  readonly fastify: FastifyInstance;
  readonly config: FolioConfig;
  readonly model: Model;
  readonly database: Database;
  close(): Promise<void>;
}

export async function createApp(config: FolioConfig): Promise<App> {
  void config;
  throw new Error('not built yet');
}
