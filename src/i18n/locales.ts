// The locales documents can be written in, kept in the database and mirrored in memory so every
// request can check `?locale=` without a query.
import type { Database } from '../database/dialect.js';
import { liftBoundForSeeding } from '../database/seeding-bound.js';
import { writeTransaction } from '../database/write-transaction.js';
import { lockKey } from '../database/key-lock.js';
import { ValidationError } from '../errors.js';
import { newDocumentId } from '../documents/document-id.js';
import { formatDatetime } from '../values/format-value.js';
import type { FolioConfig } from '../config/types.js';
import { isLocaleCode, localeName } from './locale-code.js';

export { isLocaleCode, localeName };

/** One locale as GET /api/i18n/locales shows it (behaviour.md §8). */
export interface Locale {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  isDefault: boolean;
}

type Row = Record<string, unknown>;

const TABLE = 'i18n_locale';

function toLocale(r: Row): Locale {
  const at = (v: unknown): string => formatDatetime(v) ?? '';
  return {
    id: Number(r['id']),
    documentId: String(r['document_id']),
    name: String(r['name'] ?? r['code']),
    code: String(r['code']),
    createdAt: at(r['created_at']),
    updatedAt: at(r['updated_at']),
    publishedAt: at(r['published_at']),
    // SQLite and MySQL return 1/0 for booleans
    isDefault: r['is_default'] === true || r['is_default'] === 1 || r['is_default'] === '1',
  };
}

export class LocaleService {
  private codeSet: ReadonlySet<string> = new Set();
  private defaultCode = 'en';

  constructor(private readonly database: Database) {}

  /** Every locale in creation order; also refreshes the in-memory codes and default. */
  async list(): Promise<Locale[]> {
    const rows = await this.database.db.selectFrom(TABLE).selectAll().orderBy('id').execute();
    const locales = rows.map((r) => toLocale(r as Row));
    this.codeSet = new Set(locales.map((l) => l.code));
    this.defaultCode = locales.find((l) => l.isDefault)?.code ?? locales[0]?.code ?? 'en';
    return locales;
  }

  /** The codes as of the last read or change in this process: synchronous for per-request checks. */
  codes(): ReadonlySet<string> {
    return this.codeSet;
  }

  /** The default code as of the last read or change in this process. */
  currentDefault(): string {
    return this.defaultCode;
  }

  async defaultLocale(): Promise<string> {
    await this.list();
    return this.defaultCode;
  }

  /** The locale `code`, when it may be removed: it exists and is not the default. */
  async removable(code: string): Promise<Locale> {
    const locale = (await this.list()).find((l) => l.code === code);
    if (!locale) throw new ValidationError(`Locale "${code}" does not exist`);
    if (locale.isDefault) throw new ValidationError('Cannot delete the default locale');
    return locale;
  }

  private async clearDefault(tx: Database['db']): Promise<void> {
    await tx
      .updateTable(TABLE)
      .set({ is_default: this.database.dialect.toBoolean(false) })
      .execute();
  }

  /** Makes an existing locale the default one (URLs without `locale` read it). */
  async makeDefault(code: string): Promise<Locale> {
    const { dialect } = this.database;
    const locale = (await this.list()).find((l) => l.code === code);
    if (!locale) throw new ValidationError(`Locale "${code}" does not exist`);
    await this.database.db.transaction().execute(async (tx) => {
      await this.clearDefault(tx);
      await tx
        .updateTable(TABLE)
        .set({ is_default: dialect.toBoolean(true), updated_at: dialect.toDatetime(new Date()) })
        .where('id', '=', locale.id)
        .execute();
    });
    return (await this.list()).find((l) => l.code === code)!;
  }

  async add(code: string, name?: string, makeDefault = false): Promise<Locale> {
    if (!isLocaleCode(code)) throw new ValidationError(`Invalid locale code "${code}": expected a BCP 47 code such as en, fr or pt-BR`);
    const { db, dialect } = this.database;
    if (await this.find(code)) throw new ValidationError(`Locale "${code}" already exists`);
    const now = dialect.toDatetime(new Date());
    try {
      await db.transaction().execute(async (tx) => {
        if (makeDefault) await this.clearDefault(tx);
        await tx
          .insertInto(TABLE)
          .values({
            document_id: newDocumentId(),
            name: name?.trim() || localeName(code),
            code,
            is_default: dialect.toBoolean(makeDefault),
            created_at: now,
            updated_at: now,
            published_at: now,
          })
          .execute();
      });
    } catch (e) {
      // another process added it between the check and the insert (unique index on code)
      if (await this.find(code)) throw new ValidationError(`Locale "${code}" already exists`);
      throw e;
    }
    const all = await this.list();
    return all.find((l) => l.code === code)!;
  }

  /**
   * Removes a locale. `clear` runs in the same transaction, after the locale's row is gone (deleting what was written in it);
   * either both happen or neither.
   */
  async remove(code: string, clear?: (tx: Database['db']) => Promise<void>): Promise<void> {
    const locale = await this.removable(code);
    // rerun whole when the database ended it to break a deadlock with the writes it waits for
    await writeTransaction(this.database, async (tx) => {
      // the row first: a write holding it (documents/store/locale-held.ts) is waited for, and its version cleared below
      await tx.deleteFrom(TABLE).where('id', '=', locale.id).execute();
      if (clear) await clear(tx);
    });
    await this.list();
  }

  async setDefault(code: string): Promise<void> {
    const { db, dialect } = this.database;
    if (!(await this.find(code))) throw new ValidationError(`Locale "${code}" does not exist`);
    const now = dialect.toDatetime(new Date());
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable(TABLE)
        .set({ is_default: dialect.toBoolean(false) })
        .where('code', '!=', code)
        .execute();
      await tx
        .updateTable(TABLE)
        .set({ is_default: dialect.toBoolean(true), updated_at: now })
        .where('code', '=', code)
        .execute();
    });
    await this.list();
  }

  /** On first start (no locale stored yet) creates the configured locales; later starts keep what is stored. */
  async seed(cfg: FolioConfig['i18n']): Promise<void> {
    if ((await this.list()).length > 0) return;
    const wanted = cfg.locales.some((l) => l.code === cfg.defaultLocale) ? cfg.locales : [{ code: cfg.defaultLocale, name: localeName(cfg.defaultLocale) }, ...cfg.locales];
    const { dialect } = this.database;
    const now = dialect.toDatetime(new Date());
    try {
      // processes starting together seed once: the lock makes the others wait, then find the locales (two
      // inserting at once deadlocked on MariaDB, and the one chosen to fail could not yet see the other's)
      await writeTransaction(this.database, async (tx) => {
        await liftBoundForSeeding(this.database, tx);
        await lockKey(tx, dialect, 'seed:i18n_locale');
        if ((await tx.selectFrom(TABLE).select('id').limit(1).execute()).length > 0) return;
        for (const l of wanted) {
          await tx
            .insertInto(TABLE)
            .values({
              document_id: newDocumentId(),
              name: l.name || localeName(l.code),
              code: l.code,
              is_default: dialect.toBoolean(l.code === cfg.defaultLocale),
              created_at: now,
              updated_at: now,
              published_at: now,
            })
            .execute();
        }
      });
    } catch (e) {
      // a second process (CLI, another instance) seeded first: its locales stand
      if ((await this.list()).length === 0) throw e;
    }
    await this.list();
  }

  private async find(code: string): Promise<boolean> {
    return (await this.database.db.selectFrom(TABLE).select('id').where('code', '=', code).executeTakeFirst()) !== undefined;
  }
}
