// The resolved configuration of one Folio project: config/ files and environment, validated.
import type { UploadPluginConfig } from './upload-plugin-config.js';
import type { SchemaModule } from '../schema/schema-modules.js';
import type { DatabaseConfig } from '../database/connect.js';
import type { MiddlewaresConfig } from './middlewares-config.js';
import type { EmailConfig } from './email-config.js';
import type { UsersPermissionsConfig } from '../plugins/users-permissions/config.js';
import type { ScalarType } from '../schema/types.js';
import type { ProxyTrust } from './proxy-config.js';
import type { QueryParserLimits } from './query-parser-config.js';
import type { HeavyReadLimits } from '../query/heavy-reads.js';

export interface RestConfig {
  readonly prefix: string;
  readonly defaultLimit: number;
  /** null = no upper clamp */
  readonly maxLimit: number | null;
  readonly withCount: boolean;
  readonly strictParams: boolean;
  /** JSON body limit in bytes */
  readonly jsonLimit: number;
  /** the query-string (and form body) parser's limits: config/middlewares strapi::query */
  readonly queryLimits: QueryParserLimits;
  /**
   * reuse serialized read responses until the data changes: true, false, or undefined for "when the
   * database reports every writer's commits" (SQLite); see src/http/response-cache.ts
   */
  readonly responseCache?: boolean;
  /** how many heavy reads run at once, and where a read becomes heavy (src/query/heavy-reads.ts) */
  readonly heavyReads?: HeavyReadLimits;
}

export interface LocaleSeed {
  readonly code: string;
  readonly name: string;
}

export interface FolioConfig {
  /** the project folder */
  readonly dir: string;
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string;
  /** config/server proxy.koa: where the client address comes from behind a reverse proxy (null: the connection) */
  readonly proxy: ProxyTrust | null;
  readonly database: DatabaseConfig;
  readonly rest: RestConfig;
  readonly secrets: {
    readonly apiTokenSalt: string;
    readonly jwtSecret: string;
    readonly appKeys: readonly string[];
  };
  readonly i18n: {
    readonly defaultLocale: string;
    /** locales created on first start when the locale table is empty */
    readonly locales: readonly LocaleSeed[];
  };
  /** config/plugins → users-permissions.config (JWT, register, advanced settings) */
  readonly usersPermissions: UsersPermissionsConfig;
  /** config/plugins → email.config */
  readonly email: EmailConfig;
  /** config/middlewares → strapi::cors and strapi::security (null where the list leaves one out) */
  readonly middlewares: MiddlewaresConfig;
  /** one pino line per request (FOLIO_LOG; default on outside NODE_ENV=test) */
  readonly logger: boolean;
  /** config/custom-fields: custom field id → stored type, over the known plugins' (src/schema/custom-fields.ts) */
  readonly customFields?: ReadonlyMap<string, ScalarType>;
  /** config/plugins → upload.config (sizeLimit; what isn't run is named at start-up) */
  readonly upload?: UploadPluginConfig;
  /** content-type schemas written as modules (schema.ts / schema.js), run at load (src/schema/schema-modules.ts) */
  readonly schemaModules?: ReadonlyMap<string, SchemaModule>;
}
