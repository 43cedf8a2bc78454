// Where mail goes: SMTP through nodemailer when config/plugins names the provider; without one, the
// development log (so a newcomer can follow a confirmation link from the terminal), and in
// production a clear refusal before a flow saves anything, rather than a token nobody receives.
import type { EmailConfig } from '../config/email-config.js';
import type { Mailer } from './mail.js';
import { ApplicationError } from '../errors.js';
import { logMail } from './log-mailer.js';
import { createSmtpMailer } from './smtp-mailer.js';

export type { Mail, Mailer } from './mail.js';
export { MailSendError } from './smtp-mailer.js';

export interface MailerOptions {
  env: 'development' | 'production' | 'test';
  log: (line: string) => void;
}

export const NOT_CONFIGURED = "Email is not configured: set email.config.provider to 'nodemailer' with providerOptions (host, port, auth) in config/plugins";

export function createMailer(config: EmailConfig, opts: MailerOptions): Mailer {
  if (config.provider === 'nodemailer') return createSmtpMailer(config);
  if (opts.env !== 'production') {
    return {
      ensureCanSend: () => undefined,
      send: async (mail) => logMail(mail, config, opts.log),
      close: async () => undefined,
    };
  }
  const refuse = (): never => {
    throw new ApplicationError(config.unavailable ?? NOT_CONFIGURED);
  };
  return {
    ensureCanSend: refuse,
    send: async () => refuse(),
    close: async () => undefined,
  };
}

/** One line for start-up: where this project's mail goes. */
export function describeMailer(config: EmailConfig, env: MailerOptions['env']): string {
  if (config.provider === 'nodemailer') {
    const o = config.providerOptions;
    const where =
      typeof o['host'] === 'string' ? `${o['host']}${o['port'] !== undefined ? `:${String(o['port'])}` : ''}` : typeof o['service'] === 'string' ? o['service'] : 'localhost';
    return `Email: SMTP via ${where}, from ${config.defaultFrom}`;
  }
  const why = config.unavailable ?? 'no provider configured';
  return env === 'production'
    ? `Email: ${why}; flows that send mail (password reset, email confirmation) will fail`
    : `Email: ${why}; mails are printed to this log instead of being sent`;
}
