// One mail, and what sends mail: the shapes the providers (SMTP, the development log) implement.

export interface Mail {
  to: string;
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** throws ApplicationError (src/errors.ts) with a clear reason when mail can't be sent in this set-up (production without a provider) — called BEFORE a flow saves anything */
  ensureCanSend(): void;
  /** rejects with MailSendError when the provider refuses or can't be reached */
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}
