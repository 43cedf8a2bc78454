// Opens a project's database without serving it, for commands that work whether or not the server runs.
import { loadConfig } from '../config/load-config.js';
import type { FolioConfig } from '../config/types.js';
import { connect } from '../database/connect.js';
import type { Database } from '../database/dialect.js';
import { syncSchema } from '../database/sync.js';
import { loadModel } from '../schema/load-model.js';

export async function withProject<T>(dir: string, fn: (database: Database, config: FolioConfig) => Promise<T>): Promise<T> {
  const { config } = await loadConfig(dir);
  const model = loadModel(config.dir);
  const database = await connect(config.database);
  try {
    await syncSchema(database, model);
    return await fn(database, config);
  } finally {
    await database.close();
  }
}
