// The mailer of a project without an email provider outside production: each mail goes to the
// server log (recipient, subject, its links, its text) so a reset or confirmation flow can be
// finished by copying the link from the terminal.
import type { EmailConfig } from '../config/email-config.js';
import { htmlToText, linksOf } from './html-text.js';
import type { Mail } from './mail.js';

export function logMail(mail: Mail, config: EmailConfig, log: (line: string) => void): void {
  const text = mail.text.trim() || htmlToText(mail.html);
  const replyTo = mail.replyTo || config.defaultReplyTo;
  log(`[email] not sent (no email provider in config/plugins); it would go to ${mail.to}:`);
  log(`[email]   From: ${mail.from || config.defaultFrom}${replyTo ? `, Reply-To: ${replyTo}` : ''}`);
  log(`[email]   Subject: ${mail.subject}`);
  for (const url of linksOf(mail.html, text)) log(`[email]   Link: ${url}`);
  for (const line of text.split('\n')) log(`[email]   | ${line}`);
}
