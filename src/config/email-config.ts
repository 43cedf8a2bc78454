// Strapi's `email` plugin settings from config/plugins, in Strapi's shape:
//   email: { config: { provider: 'nodemailer', providerOptions: { host, port, auth, … },
//                      settings: { defaultFrom, defaultReplyTo } } }
// Only the nodemailer (SMTP) provider exists here; other names fail start-up instead of silently
// dropping every mail. No provider at all is allowed: src/email/mailer.ts then prints mails in
// development and refuses to send in production.
import { ConfigError } from '../errors.js';
import { isObj, type Obj } from './config-files.js';
import { fileString } from './values.js';

export interface EmailConfig {
  provider: 'nodemailer' | null;
  /** handed to nodemailer's SMTP transport unchanged (host, port, secure, ignoreTLS, auth, pool, …) */
  providerOptions: Record<string, unknown>;
  defaultFrom: string;
  defaultReplyTo: string | null;
}

/**
 * The sender when `settings.defaultFrom` is unset. Strapi's email plugin defaults to
 * `Strapi <no-reply@strapi.io>`, but the only mails Folio sends are the users-permissions ones,
 * whose stored templates say `Administration Panel <no-reply@strapi.io>` in Strapi: using that
 * here keeps an unconfigured project's mails looking as they do in Strapi. (Folio's templates
 * leave `from` to this setting unless overridden; see email-templates.ts.)
 */
export const DEFAULT_FROM = 'Administration Panel <no-reply@strapi.io>';

// Strapi resolves `provider` to a package: the short name, the scoped package or the community one
const NODEMAILER_NAMES = ['nodemailer', '@strapi/provider-email-nodemailer', 'strapi-provider-email-nodemailer'];

const KEY = 'plugins.email.config';

function provider(v: unknown): EmailConfig['provider'] {
  const name = fileString(v, `${KEY}.provider`)?.trim().toLowerCase();
  if (name === undefined || name === '') return null;
  if (NODEMAILER_NAMES.includes(name)) return 'nodemailer';
  throw new ConfigError(
    `${KEY}.provider must be 'nodemailer' (or '@strapi/provider-email-nodemailer'), got "${String(v)}": Folio sends mail through SMTP only; remove the key to print mails to the log in development`,
  );
}

// Only what would otherwise fail on the first mail, long after start-up, is checked; every other
// option goes to nodemailer as written.
function providerOptions(v: unknown, on: boolean): Obj {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw new ConfigError(`${KEY}.providerOptions must be an object of SMTP options such as { host, port, auth: { user, pass } }`);
  if (!on) return v;
  fileString(v['host'], `${KEY}.providerOptions.host`);
  const port = v['port'];
  if (port !== undefined && port !== null) {
    const n = typeof port === 'string' && /^\d+$/.test(port.trim()) ? Number(port) : port;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      throw new ConfigError(`${KEY}.providerOptions.port must be a port number from 1 to 65535, got ${JSON.stringify(port)}`);
    }
  }
  if (v['auth'] !== undefined && v['auth'] !== null && !isObj(v['auth'])) {
    throw new ConfigError(`${KEY}.providerOptions.auth must be an object such as { user, pass }`);
  }
  return v;
}

export function emailConfig(plugins: Record<string, unknown>): EmailConfig {
  const email = plugins['email'];
  const cfg = isObj(email) && isObj(email['config']) ? email['config'] : {};
  const settings = cfg['settings'];
  if (settings !== undefined && settings !== null && !isObj(settings)) throw new ConfigError(`${KEY}.settings must be an object such as { defaultFrom, defaultReplyTo }`);
  const s: Obj = settings ?? {};
  const p = provider(cfg['provider']);
  return {
    provider: p,
    providerOptions: providerOptions(cfg['providerOptions'], p !== null),
    defaultFrom: fileString(s['defaultFrom'], `${KEY}.settings.defaultFrom`)?.trim() || DEFAULT_FROM,
    defaultReplyTo: fileString(s['defaultReplyTo'], `${KEY}.settings.defaultReplyTo`)?.trim() || null,
  };
}
