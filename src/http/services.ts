// Everything a route handler needs, built once per application and passed explicitly.
import type { FolioConfig } from '../config/types.js';
import type { Database } from '../database/dialect.js';
import type { Model } from '../schema/types.js';
import type { ReadContext } from '../query/sql/find.js';
import type { DocumentWriter } from '../documents/write.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { RoleStore } from '../auth/roles.js';
import type { ApiTokenService } from '../auth/api-tokens.js';
import type { ResponseCache } from './response-cache.js';
import type { HeavyReadGate } from '../query/heavy-reads.js';

/** The locales as request handlers read them: synchronously, from memory. */
export interface LocaleView {
  codes(): ReadonlySet<string>;
  defaultCode(): string;
  /** reads the locales again (one added from the CLI while this process runs) */
  refresh(): Promise<void>;
}

export interface Services {
  readonly config: FolioConfig;
  readonly model: Model;
  readonly database: Database;
  readonly readContext: ReadContext;
  readonly writer: DocumentWriter;
  readonly authenticator: Authenticator;
  readonly roles: RoleStore;
  readonly tokens: ApiTokenService;
  readonly locales: LocaleView;
  /** null when responses are not reused (config rest.responseCache) */
  readonly responseCache: ResponseCache | null;
  /** lets a few reads near the populate budget run at once (config rest.heavyReads) */
  readonly heavyReads: HeavyReadGate;
}
