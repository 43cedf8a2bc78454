// The 'API Uploads' folder every content-API upload goes into, created on first use.
// Several first uploads may race (in one process or several). One statement reads both "does it
// exist?" and "what is the next path?" from the same snapshot, so a racer that missed the other's
// folder also computed the same path, and the unique `path` index makes its INSERT fail; it then
// reads the winner's folder.
import { sql } from 'kysely';
import type { Database } from '../../database/dialect.js';
import { newDocumentId } from '../../documents/document-id.js';

export const API_UPLOAD_FOLDER = 'API Uploads';

export interface Folder {
  readonly id: number;
  readonly path: string;
}

async function find(database: Database): Promise<Folder | null> {
  const row = await database.db.selectFrom('upload_folders').select(['id', 'path']).where('name', '=', API_UPLOAD_FOLDER).orderBy('id').limit(1).executeTakeFirst();
  return row ? { id: Number(row.id), path: String(row.path) } : null;
}

/** Creates the folder unless the snapshot shows one; a lost race throws (unique path). */
async function tryCreate(database: Database): Promise<void> {
  const { db, dialect } = database;
  const seen = await db
    .selectFrom('upload_folders')
    .select([sql<number>`coalesce(max(path_id), 0)`.as('m'), sql<number>`count(case when name = ${API_UPLOAD_FOLDER} then 1 end)`.as('n')])
    .executeTakeFirst();
  if (Number(seen?.n ?? 0) > 0) return;
  const pathId = Number(seen?.m ?? 0) + 1;
  const now = dialect.toDatetime(new Date());
  await db
    .insertInto('upload_folders')
    .values({
      document_id: newDocumentId(),
      name: API_UPLOAD_FOLDER,
      path_id: pathId,
      path: `/${pathId}`,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The API Uploads folder, created if missing. Safe to call concurrently. */
export async function ensureApiUploadFolder(database: Database): Promise<Folder> {
  let lastError: unknown = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await find(database);
    if (found) return found;
    try {
      await tryCreate(database);
    } catch (e) {
      // a unique-path collision (or a deadlock victim on MySQL): someone else created one; look again
      lastError = e;
    }
  }
  const found = await find(database);
  if (found) return found;
  throw lastError ?? new Error('could not create the API Uploads folder');
}

/** Remembers the folder once found, so uploads after the first cost no query for it. */
export class ApiUploadFolder {
  private known: Folder | null = null;
  private pending: Promise<Folder> | null = null;

  constructor(private readonly database: Database) {}

  async get(): Promise<Folder> {
    if (this.known) return this.known;
    this.pending ??= ensureApiUploadFolder(this.database).finally(() => {
      this.pending = null;
    });
    this.known = await this.pending;
    return this.known;
  }
}
