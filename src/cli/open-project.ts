// Opens a project's database without serving it, for commands that work whether or not the server runs.
import { loadConfig } from '../config/load-config.js';
import type { FolioConfig } from '../config/types.js';
import { connect } from '../database/connect.js';
import type { Database } from '../database/dialect.js';
import { syncSchema } from '../database/sync.js';
import { loadModel } from '../schema/load-model.js';
import type { Model } from '../schema/types.js';
import { checkProjectDir } from './project-dir.js';
import { announce } from './report.js';

export async function withProject<T>(dir: string, fn: (database: Database, config: FolioConfig, model: Model) => Promise<T>): Promise<T> {
  checkProjectDir(dir);
  const loaded = await loadConfig(dir);
  // stdout carries the command's result (an access key, JSON), so notices go to stderr
  announce(loaded, (line) => console.error(line));
  const model = loadModel(loaded.config.dir, { customFields: loaded.config.customFields, schemaModules: loaded.config.schemaModules });
  const database = await connect(loaded.config.database);
  try {
    // the tables may not exist yet when the server has never run
    await syncSchema(database, model);
    return await fn(database, loaded.config, model);
  } finally {
    await database.close();
  }
}
