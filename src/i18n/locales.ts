// The locales documents can be written in, kept in the database and mirrored in memory so every
// request can check `?locale=` without a query.
import type { Database } from '../database/dialect.js';
import { ValidationError } from '../errors.js';
import { newDocumentId } from '../documents/document-id.js';
import { formatDatetime } from '../documents/format-value.js';

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

const CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function localeName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    if (name && name !== code) return `${name} (${code})`;
  } catch { /* not a known language */ }
  return code;
}

export class LocaleService {
  private codeSet: ReadonlySet<string> = new Set();
  private defaultCode = 'en';

  constructor(private readonly database: Database) {}

  async list(): Promise<Locale[]> {
    const rows = await this.database.db.selectFrom('i18n_locale').selectAll().orderBy('id').execute();
    const out = rows.map((r) => ({
      id: Number(r.id), documentId: String(r.document_id), name: String(r.name), code: String(r.code),
      createdAt: formatDatetime(r.created_at) ?? '', updatedAt: formatDatetime(r.updated_at) ?? '',
      publishedAt: formatDatetime(r.published_at) ?? '', isDefault: r.is_default === true || r.is_default === 1,
    }));
    this.codeSet = new Set(out.map((l) => l.code));
    this.defaultCode = out.find((l) => l.isDefault)?.code ?? out[0]?.code ?? 'en';
    return out;
  }

  codes(): ReadonlySet<string> {
    return this.codeSet;
  }

  async defaultLocale(): Promise<string> {
    return this.defaultCode;
  }

  /** the default locale as last read from the database */
  currentDefault(): string {
    return this.defaultCode;
  }

  async add(code: string, name?: string, makeDefault = false): Promise<Locale> {
    if (code.length > 35 || !CODE.test(code)) throw new ValidationError(`Invalid locale code "${code}": expected a BCP 47 code such as en, fr or pt-BR`);
    const { db, dialect } = this.database;
    if (await db.selectFrom('i18n_locale').select('id').where('code', '=', code).executeTakeFirst()) {
      throw new ValidationError(`Locale "${code}" already exists`);
    }
    const now = dialect.toDatetime(new Date());
    await db.insertInto('i18n_locale').values({
      document_id: newDocumentId(), name: name ?? localeName(code), code, is_default: dialect.toBoolean(false),
      created_at: now, updated_at: now, published_at: now,
    }).execute();
    if (makeDefault) await this.setDefault(code);
    const all = await this.list();
    return all.find((l) => l.code === code)!;
  }

  async remove(code: string): Promise<void> {
    const all = await this.list();
    const l = all.find((x) => x.code === code);
    if (!l) throw new ValidationError(`Locale "${code}" does not exist`);
    if (l.isDefault) throw new ValidationError('Cannot delete the default locale');
    await this.database.db.deleteFrom('i18n_locale').where('code', '=', code).execute();
    await this.list();
  }

  async setDefault(code: string): Promise<void> {
    const { db, dialect } = this.database;
    if (!(await db.selectFrom('i18n_locale').select('id').where('code', '=', code).executeTakeFirst())) {
      throw new ValidationError(`Locale "${code}" does not exist`);
    }
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('i18n_locale').set({ is_default: dialect.toBoolean(false) }).execute();
      await tx.updateTable('i18n_locale').set({ is_default: dialect.toBoolean(true) }).where('code', '=', code).execute();
    });
    await this.list();
  }

  /** On first start (no locale stored yet), creates the configured locales. */
  async seed(cfg: { defaultLocale: string; locales: readonly { code: string; name: string }[] }): Promise<void> {
    const existing = await this.list();
    if (existing.length === 0) {
      const wanted = cfg.locales.some((l) => l.code === cfg.defaultLocale) ? cfg.locales : [{ code: cfg.defaultLocale, name: localeName(cfg.defaultLocale) }, ...cfg.locales];
      for (const l of wanted) await this.add(l.code, l.name, l.code === cfg.defaultLocale);
    }
    await this.list();
  }
}
