// A real SMTP server on 127.0.0.1 that keeps what it receives, parsed, for tests that send mail.
// No TLS (STARTTLS is not offered) and any or no login is accepted.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  readonly port: number;
  /** every mail received so far, in arrival order */
  readonly mails: ParsedMail[];
  /** envelope recipients of each mail, parallel to `mails` */
  readonly recipients: string[][];
  /** the next mail not yet returned by next(), waiting for it up to timeoutMs (default 5 s) */
  next(timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export interface SmtpSinkOptions {
  /** refuse a recipient (RCPT TO) with a 550, as a server rejecting an address would */
  rejectRecipient?: (address: string) => boolean | Promise<boolean>;
}

export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const recipients: string[][] = [];
  let taken = 0;
  let waiting: (() => void) | null = null;
  const server = new SMTPServer({
    authOptional: true,
    // no TLS here, so a test may still log in (providerOptions.auth)
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, done) => done(null, { user: 'test' }),
    onRcptTo(address, _session, done) {
      // a promise: the answer comes when it settles (a slow server refusing)
      void Promise.resolve(opts.rejectRecipient?.(address.address) ?? false).then((reject) => {
        if (reject) {
          const err = Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 });
          done(err);
          return;
        }
        done();
      });
    },
    onData(stream, session, done) {
      simpleParser(stream).then(
        (mail) => {
          // the client's 250 comes after the mail is stored, so a resolved send() means it is here
          mails.push(mail);
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          waiting?.();
          done();
        },
        (e: Error) => done(e),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const next = async (timeoutMs = 5000): Promise<ParsedMail> => {
    if (taken >= mails.length) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = null;
          reject(new Error(`no mail arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = () => {
          clearTimeout(timer);
          waiting = null;
          resolve();
        };
      });
    }
    return mails[taken++]!;
  };

  return {
    port,
    mails,
    recipients,
    next,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
