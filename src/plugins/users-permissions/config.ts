// `users-permissions.config` in config/plugins, in Strapi's shape, plus `advanced`: the settings
// Strapi keeps in its admin store (Folio has no admin panel), under the same key names.
import { ConfigError } from '../../errors.js';
import { isObj, type Obj } from '../../config/config-files.js';
import { fileBool, fileString } from '../../config/values.js';
import { durationSeconds } from './duration.js';
import { DEFAULT_RATE_LIMIT, type RateLimitSettings } from './rate-limit.js';

export interface AdvancedSettings {
  readonly unique_email: boolean;
  readonly allow_register: boolean;
  readonly email_confirmation: boolean;
  /** where a confirmed user is redirected; null → `/` */
  readonly email_confirmation_redirection: string | null;
  /** the front-end page of the reset link (its URL variable); null → the link has no page */
  readonly email_reset_password: string | null;
  /** role type given to new users */
  readonly default_role: string;
}

export type PasswordRule = (password: string) => unknown;

export interface UsersPermissionsConfig {
  readonly jwt: { readonly expiresInSeconds: number; readonly algorithm: 'HS256' | 'HS384' | 'HS512' };
  readonly register: { readonly allowedFields: readonly string[] };
  readonly jwtManagement: 'legacy-support' | 'refresh';
  readonly advanced: AdvancedSettings;
  /**
   * `validationRules.validatePassword`: the project's own password rule for register, reset- and
   * change-password (false, or a thrown error's message, refuses the password)
   */
  readonly validatePassword: PasswordRule | undefined;
  /** `ratelimit` of the auth routes (rate-limit.ts) */
  readonly ratelimit: RateLimitSettings;
  /** the raw plugin config, for the parts read elsewhere (email templates, sessions, rate limits) */
  readonly raw: Obj;
}

const ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
const ADVANCED_KEYS = new Set(['unique_email', 'allow_register', 'email_confirmation', 'email_confirmation_redirection', 'email_reset_password', 'default_role']);
const KEY = 'plugins.users-permissions.config';

function section(o: Obj, key: string, name: string): Obj {
  const v = o[key];
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw new ConfigError(`${name} must be an object`);
  return v;
}

/** an absolute http(s) target must parse: found out at start-up, not after a confirmation was spent on it */
function redirectTarget(v: string | null, name: string): string | null {
  if (v !== null && /^https?:\/\//i.test(v) && !URL.canParse(v)) throw new ConfigError(`${name} must be a URL, got "${v}"`);
  return v;
}

function advanced(raw: Obj): AdvancedSettings {
  const a = section(raw, 'advanced', `${KEY}.advanced`);
  const unknown = Object.keys(a).find((k) => !ADVANCED_KEYS.has(k));
  if (unknown !== undefined) throw new ConfigError(`${KEY}.advanced.${unknown} is not a setting; known: ${[...ADVANCED_KEYS].join(', ')}`);
  const k = (name: string): string => `${KEY}.advanced.${name}`;
  return {
    unique_email: fileBool(a['unique_email'], k('unique_email'), true),
    allow_register: fileBool(a['allow_register'], k('allow_register'), true),
    email_confirmation: fileBool(a['email_confirmation'], k('email_confirmation'), false),
    email_confirmation_redirection: redirectTarget(
      fileString(a['email_confirmation_redirection'], k('email_confirmation_redirection')) || null,
      k('email_confirmation_redirection'),
    ),
    email_reset_password: fileString(a['email_reset_password'], k('email_reset_password')) || null,
    default_role: fileString(a['default_role'], k('default_role')) || 'authenticated',
  };
}

/** koa2-ratelimit's time units, which Strapi's `ratelimit.interval` accepts besides a number of ms */
const TIME_UNITS: Readonly<Record<string, number>> = { ms: 1, sec: 1000, min: 60_000, hour: 3_600_000, day: 86_400_000 };

function ratelimit(raw: Obj): RateLimitSettings {
  const r = section(raw, 'ratelimit', `${KEY}.ratelimit`);
  const k = (name: string): string => `${KEY}.ratelimit.${name}`;
  const unknown = Object.keys(r).find((name) => !['enabled', 'interval', 'max'].includes(name));
  if (unknown !== undefined) throw new ConfigError(`${k(unknown)} is not a setting; known: enabled, interval, max`);
  const enabled = fileBool(r['enabled'], k('enabled'), true);
  let interval = DEFAULT_RATE_LIMIT.interval;
  const i = r['interval'];
  if (typeof i === 'number') interval = i;
  else if (isObj(i)) {
    interval = 0;
    for (const [unit, n] of Object.entries(i)) {
      if (TIME_UNITS[unit] === undefined || typeof n !== 'number')
        throw new ConfigError(`${k('interval')} must be a number of ms or an object of ${Object.keys(TIME_UNITS).join(', ')} (numbers), got ${JSON.stringify(i)}`);
      interval += n * TIME_UNITS[unit];
    }
  } else if (i !== undefined) throw new ConfigError(`${k('interval')} must be a number of ms or an object such as {min: 5}, got ${JSON.stringify(i)}`);
  if (!Number.isFinite(interval) || interval < 1) throw new ConfigError(`${k('interval')} must be at least 1 ms, got ${interval}`);
  const max = r['max'] ?? DEFAULT_RATE_LIMIT.max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) throw new ConfigError(`${k('max')} must be a whole number of requests, at least 1, got ${JSON.stringify(max)}`);
  return { enabled, interval: Math.round(interval), max };
}

function passwordRule(raw: Obj): PasswordRule | undefined {
  const rule = section(raw, 'validationRules', `${KEY}.validationRules`)['validatePassword'];
  if (rule === undefined || rule === null) return undefined;
  if (typeof rule !== 'function') throw new ConfigError(`${KEY}.validationRules.validatePassword must be a function of the password`);
  return rule as PasswordRule;
}

export function usersPermissionsConfig(plugins: Obj): UsersPermissionsConfig {
  const raw = section(section(plugins, 'users-permissions', 'plugins.users-permissions'), 'config', KEY);
  const jwt = section(raw, 'jwt', `${KEY}.jwt`);
  const algorithm = fileString(jwt['algorithm'], `${KEY}.jwt.algorithm`) ?? 'HS256';
  if (!(ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new ConfigError(`${KEY}.jwt.algorithm must be one of ${ALGORITHMS.join(', ')} (a shared secret signs the tokens), got "${algorithm}"`);
  }
  const fields = section(raw, 'register', `${KEY}.register`)['allowedFields'] ?? [];
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string')) throw new ConfigError(`${KEY}.register.allowedFields must be a list of attribute names`);
  const mode = fileString(raw['jwtManagement'], `${KEY}.jwtManagement`) ?? 'legacy-support';
  if (mode !== 'legacy-support' && mode !== 'refresh') throw new ConfigError(`${KEY}.jwtManagement must be "legacy-support" or "refresh", got "${mode}"`);
  return {
    jwt: { expiresInSeconds: durationSeconds(jwt['expiresIn'] ?? '30d', `${KEY}.jwt.expiresIn`), algorithm: algorithm as UsersPermissionsConfig['jwt']['algorithm'] },
    register: { allowedFields: fields as string[] },
    jwtManagement: mode,
    advanced: advanced(raw),
    ratelimit: ratelimit(raw),
    validatePassword: passwordRule(raw),
    raw,
  };
}
