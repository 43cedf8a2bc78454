// The users-permissions mails (password reset, account confirmation): Strapi 5's default subjects
// and bodies, overridable in config/plugins because Folio has no admin panel to edit Strapi's stored
// copy. An override takes the shape Strapi stores (and its admin API returns), so one can be pasted
// across; every field is optional and falls back to the default:
//
//   'users-permissions': { config: { emailTemplates: {
//     reset_password: { options: {
//       from: { name: 'My app', email: 'hello@example.com' },  // default: email settings.defaultFrom
//       response_email: 'support@example.com',                  // Reply-To; '' or null for none
//       object: 'Reset your password',                          // the subject
//       message: '<p><a href="<%= URL %>?code=<%= TOKEN %>">Choose a new password</a></p>',
//     } },
//     email_confirmation: { options: { … } },
//   } } }
//
// (`options` may be left out: `{ object, message }` alone is read the same way.)
//
// Placeholders: `<%= NAME %>` or `<%= USER.field %>` only, never code. Both templates know URL,
// SERVER_URL, ADMIN_URL and USER (the sanitised user); reset_password adds TOKEN and
// email_confirmation adds CODE. Values are HTML-escaped in the HTML body, so a user named
// `<script>…` reads as text; the subject and the text part carry them as written.
import { ApplicationError, ConfigError } from '../../errors.js';
import { isObj, type Obj } from '../../config/config-files.js';
import { htmlToText } from '../../email/html-text.js';
import { escapeHtml, fillTemplate, parseTemplate, TemplateSyntaxError, type TemplatePart } from '../../email/template.js';

export type TemplateName = 'reset_password' | 'email_confirmation';

export interface EmailTemplate {
  /** null: the email plugin's settings.defaultFrom */
  from: { name: string; email: string } | null;
  replyTo: string | null;
  subject: string;
  message: string;
}

const NAMES: readonly TemplateName[] = ['reset_password', 'email_confirmation'];

const COMMON = ['URL', 'SERVER_URL', 'ADMIN_URL', 'USER'];
const VARIABLES: Record<TemplateName, readonly string[]> = {
  reset_password: [...COMMON, 'TOKEN'],
  email_confirmation: [...COMMON, 'CODE'],
};

// Strapi 5's bodies, word for word: the mail text is part of what a client sees. The sender is left
// to settings.defaultFrom (whose own default is Strapi's `Administration Panel <no-reply@strapi.io>`)
// so that a project which sets its sender gets it on these mails too, without an admin panel.
const DEFAULTS: Record<TemplateName, EmailTemplate> = {
  reset_password: {
    from: null,
    replyTo: null,
    subject: 'Reset password',
    message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
  },
  email_confirmation: {
    from: null,
    replyTo: null,
    subject: 'Account confirmation',
    message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
  },
};

const KEY = 'plugins.users-permissions.config.emailTemplates';
const OPTION_KEYS = ['from', 'response_email', 'object', 'message'];
// Strapi's stored entry carries these beside `options`; they only matter to its admin panel
const ENTRY_KEYS = ['options', 'display', 'icon'];
const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+$/;

function address(v: unknown, key: string): string {
  if (typeof v !== 'string' || !ADDRESS.test(v.trim())) throw new ConfigError(`${key} must be an email address, got ${JSON.stringify(v)}`);
  return v.trim();
}

function from(v: unknown, key: string): EmailTemplate['from'] {
  if (v === null) return null;
  if (!isObj(v)) throw new ConfigError(`${key} must be { name, email }`);
  const name = v['name'] ?? '';
  if (typeof name !== 'string') throw new ConfigError(`${key}.name must be a string, got ${JSON.stringify(name)}`);
  const email = v['email'] ?? '';
  // Strapi sends no From of its own when both are empty
  if (email === '' && name.trim() === '') return null;
  return { name: name.trim(), email: address(email, `${key}.email`) };
}

function text(v: unknown, key: string, name: TemplateName): string {
  if (typeof v !== 'string' || v.trim() === '') throw new ConfigError(`${key} must be a non-empty string`);
  try {
    parseTemplate(v, (n, path) => VARIABLES[name].includes(n) && (path.length === 0 || n === 'USER'));
  } catch (e) {
    if (!(e instanceof TemplateSyntaxError)) throw e;
    throw new ConfigError(`${key}: ${e.message}; the variables are ${VARIABLES[name].join(', ')} (and USER.<field>)`);
  }
  return v;
}

function override(base: EmailTemplate, v: unknown, name: TemplateName): EmailTemplate {
  const key = `${KEY}.${name}`;
  if (!isObj(v)) throw new ConfigError(`${key} must be an object such as { options: { object, message } }`);
  const wrapped = 'options' in v;
  const stray = Object.keys(v).filter((k) => !(wrapped ? ENTRY_KEYS : OPTION_KEYS).includes(k));
  if (stray.length > 0)
    throw new ConfigError(
      `${key} has unknown key ${stray[0]}: expected ${wrapped ? '{ options: { from, response_email, object, message } }' : 'from, response_email, object, message'}`,
    );
  const opts = wrapped ? v['options'] : v;
  const okey = wrapped ? `${key}.options` : key;
  if (!isObj(opts)) throw new ConfigError(`${okey} must be an object such as { object, message }`);
  for (const k of Object.keys(opts)) {
    if (OPTION_KEYS.includes(k)) continue;
    const hint =
      k === 'subject'
        ? ' (the subject is called object, as in Strapi)'
        : k === 'replyTo' || k === 'reply_to'
          ? ' (the reply-to address is called response_email, as in Strapi)'
          : '';
    throw new ConfigError(`${okey} has unknown key ${k}${hint}: expected from, response_email, object, message`);
  }
  const t: EmailTemplate = { ...base };
  if (opts['from'] !== undefined) t.from = from(opts['from'], `${okey}.from`);
  const reply = opts['response_email'];
  if (reply !== undefined) t.replyTo = reply === null || reply === '' ? null : address(reply, `${okey}.response_email`);
  if (opts['object'] !== undefined) t.subject = text(opts['object'], `${okey}.object`, name);
  if (opts['message'] !== undefined) t.message = text(opts['message'], `${okey}.message`, name);
  return t;
}

/** The two templates: Strapi's defaults with `upConfig.emailTemplates` (users-permissions' config) over them. */
export function emailTemplates(upConfig: Record<string, unknown>): Record<TemplateName, EmailTemplate> {
  const raw = upConfig['emailTemplates'];
  const out: Record<TemplateName, EmailTemplate> = { reset_password: { ...DEFAULTS.reset_password }, email_confirmation: { ...DEFAULTS.email_confirmation } };
  if (raw === undefined || raw === null) return out;
  if (!isObj(raw)) throw new ConfigError(`${KEY} must be an object with reset_password and/or email_confirmation`);
  for (const [name, v] of Object.entries(raw as Obj)) {
    if (!(NAMES as readonly string[]).includes(name)) throw new ConfigError(`${KEY} has unknown template ${name}: expected ${NAMES.join(' or ')}`);
    out[name as TemplateName] = override(out[name as TemplateName], v, name as TemplateName);
  }
  return out;
}

function formatFrom(f: { name: string; email: string }): string {
  if (f.name === '') return f.email;
  // a display name with address punctuation has to be quoted to stay one name
  const name = /^[\p{L}\p{N} !#$%&'*+\-/=?^_`{|}~.]*$/u.test(f.name) ? f.name : `"${f.name.replace(/["\\]/g, '\\$&')}"`;
  return `${name} <${f.email}>`;
}

function parse(src: string, vars: Record<string, unknown>): TemplatePart[] {
  try {
    // VARIABLES' names are always known (absent → empty, as in Strapi); anything else must be passed
    return parseTemplate(src, (n) => Object.hasOwn(vars, n) || COMMON.includes(n) || n === 'TOKEN' || n === 'CODE');
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw new ApplicationError('Invalid email template');
    throw e;
  }
}

/**
 * One mail from a template: the subject (one line, values as written), the HTML body (values
 * HTML-escaped) and its plain-text rendering. `from`/`replyTo` are absent when the template leaves
 * them to the email settings.
 */
export function renderMail(t: EmailTemplate, vars: Record<string, unknown>): { subject: string; html: string; text: string; from?: string; replyTo?: string } {
  const subject = fillTemplate(parse(t.subject, vars), vars)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const html = fillTemplate(parse(t.message, vars), vars, escapeHtml);
  const mail: { subject: string; html: string; text: string; from?: string; replyTo?: string } = { subject, html, text: htmlToText(html) };
  if (t.from) mail.from = formatFrom(t.from);
  if (t.replyTo) mail.replyTo = t.replyTo;
  return mail;
}
