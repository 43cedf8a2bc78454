// Strapi's `email` plugin settings from config/plugins, in Strapi's shape:
//   email: { config: { provider: 'nodemailer', providerOptions: { host, port, auth, … },
//                      settings: { defaultFrom, defaultReplyTo } } }
// Mail goes out through SMTP (nodemailer): the nodemailer provider, and SendGrid's through SendGrid's
// SMTP relay. A provider Folio can't run still starts the project, as Strapi would with it: like no
// provider at all, src/email/mailer.ts then prints mails in development and refuses to send in
// production, saying why at start-up and at every flow that would send.
import { ConfigError } from '../errors.js';
import { isObj, type Obj } from './config-files.js';
import { fileString } from './values.js';

export interface EmailConfig {
  provider: 'nodemailer' | null;
  /** why the configured provider can't send (an unsupported one, a missing key); null when it can or none is set */
  unavailable: string | null;
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
const packageNames = (name: string): string[] => [name, `@strapi/provider-email-${name}`, `strapi-provider-email-${name}`];
const NODEMAILER_NAMES = packageNames('nodemailer');
const SENDGRID_NAMES = packageNames('sendgrid');

const KEY = 'plugins.email.config';

type Provider = { readonly kind: 'nodemailer' | 'sendgrid' | null } | { readonly kind: 'unsupported'; readonly name: string };

function provider(v: unknown): Provider {
  const name = fileString(v, `${KEY}.provider`)?.trim().toLowerCase();
  if (name === undefined || name === '') return { kind: null };
  if (NODEMAILER_NAMES.includes(name)) return { kind: 'nodemailer' };
  if (SENDGRID_NAMES.includes(name)) return { kind: 'sendgrid' };
  return { kind: 'unsupported', name: String(v) };
}

/**
 * SendGrid's provider takes `{ apiKey }`; SendGrid's SMTP relay takes the same key as the password of
 * the user "apikey" (SendGrid's SMTP integration guide).
 */
function sendgridRelay(v: unknown): { options: Obj; unavailable: string | null } {
  const apiKey = isObj(v) ? v['apiKey'] : undefined;
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') throw new ConfigError(`${KEY}.providerOptions.apiKey must be a string`);
  if (!apiKey) return { options: {}, unavailable: `${KEY}.providerOptions.apiKey is not set: mail can't be sent through SendGrid` };
  return { options: { host: 'smtp.sendgrid.net', port: 587, secure: false, auth: { user: 'apikey', pass: apiKey } }, unavailable: null };
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
  let smtp: 'nodemailer' | null = p.kind === 'nodemailer' ? 'nodemailer' : null;
  let options = providerOptions(cfg['providerOptions'], smtp !== null);
  let unavailable: string | null = null;
  if (p.kind === 'sendgrid') {
    const relay = sendgridRelay(cfg['providerOptions']);
    ({ options, unavailable } = relay);
    if (unavailable === null) smtp = 'nodemailer';
  } else if (p.kind === 'unsupported') {
    unavailable = `${KEY}.provider "${p.name}" is not one Folio can send with (nodemailer's SMTP, or sendgrid through SendGrid's SMTP relay)`;
  }
  return {
    provider: smtp,
    unavailable,
    providerOptions: options,
    defaultFrom: fileString(s['defaultFrom'], `${KEY}.settings.defaultFrom`)?.trim() || DEFAULT_FROM,
    defaultReplyTo: fileString(s['defaultReplyTo'], `${KEY}.settings.defaultReplyTo`)?.trim() || null,
  };
}
