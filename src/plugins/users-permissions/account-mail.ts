// The two account mails: a password-reset link and an email-confirmation link, from the templates.
import { randomBytes } from 'node:crypto';
import type { DocumentObject } from '../../documents/read.js';
import { renderMail } from './email-templates.js';
import type { UpContext } from './context.js';
import type { UserRow } from './users.js';

/** 64 random bytes as 128 hex characters (Strapi's reset code) */
export const newResetCode = (): string => randomBytes(64).toString('hex');
/** 20 random bytes as 40 hex characters (Strapi's confirmation token) */
export const newConfirmationToken = (): string => randomBytes(20).toString('hex');

function common(up: UpContext, user: DocumentObject | null): Record<string, unknown> {
  const server = up.services.config.publicUrl;
  return { SERVER_URL: server, ADMIN_URL: `${server}/admin`, USER: user ?? {} };
}

export async function sendResetMail(up: UpContext, row: UserRow, user: DocumentObject | null, code: string): Promise<void> {
  const mail = renderMail(up.templates.reset_password, { ...common(up, user), URL: up.config.advanced.email_reset_password ?? '', TOKEN: code });
  await up.mailer.send({ to: row.email, ...mail });
}

export async function sendConfirmationMail(up: UpContext, row: UserRow, user: DocumentObject | null, code: string): Promise<void> {
  const mail = renderMail(up.templates.email_confirmation, { ...common(up, user), URL: `${up.apiUrl}/auth/email-confirmation`, CODE: code });
  await up.mailer.send({ to: row.email, ...mail });
}
