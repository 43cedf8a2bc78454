// The nodemailer provider: one SMTP transport built from Strapi's providerOptions on the first
// mail. nodemailer is imported then, not at start-up, so a project that never sends mail never
// loads it (it stays outside the bundle too: scripts/bundle.mjs).
import type { Transporter } from 'nodemailer';
import type { EmailConfig } from '../config/email-config.js';
import type { Mail, Mailer } from './mail.js';

/**
 * A mail the provider refused or could not take (connection refused, authentication, a rejected
 * recipient). Not an ApplicationError: the flow decides the response (Strapi answers 400 on
 * register, 500 on forgot-password). `code` and `responseCode` are nodemailer's when it gave them.
 */
export class MailSendError extends Error {
  override readonly name = 'MailSendError';
  readonly code: string | undefined;
  readonly responseCode: number | undefined;
  constructor(cause: unknown) {
    const e = cause instanceof Error ? (cause as Error & { code?: unknown; responseCode?: unknown }) : undefined;
    super(`Email could not be sent: ${e?.message ?? String(cause)}`, { cause });
    this.code = typeof e?.code === 'string' ? e.code : undefined;
    this.responseCode = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  }
}

// nodemailer waits up to two minutes to connect and ten for a silent socket; a request sending a
// mail should fail sooner. Only applied when providerOptions leaves them unset.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createSmtpMailer(config: EmailConfig): Mailer {
  let transport: Promise<Transporter> | null = null;
  const open = (): Promise<Transporter> => {
    transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport({ ...TIMEOUTS, ...config.providerOptions }));
    return transport;
  };
  return {
    ensureCanSend: () => undefined,
    async send(mail: Mail): Promise<void> {
      const t = await open();
      try {
        await t.sendMail({
          to: mail.to,
          from: mail.from || config.defaultFrom,
          replyTo: mail.replyTo || config.defaultReplyTo || undefined,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      } catch (e) {
        throw new MailSendError(e);
      }
    },
    async close(): Promise<void> {
      if (transport === null) return;
      const t = await transport;
      transport = null;
      t.close();
    },
  };
}
