import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmailConfig } from '../../src/config/email-config.js';
import { DEFAULT_FROM, emailConfig } from '../../src/config/email-config.js';
import { createMailer, describeMailer, MailSendError, NOT_CONFIGURED, type Mailer } from '../../src/email/mailer.js';
import { ApplicationError } from '../../src/errors.js';
import { emailTemplates, renderMail } from '../../src/plugins/users-permissions/email-templates.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function sink(opts?: Parameters<typeof startSmtpSink>[0]): Promise<SmtpSink> {
  const s = await startSmtpSink(opts);
  open.push(s);
  return s;
}

function smtpConfig(port: number): EmailConfig {
  return emailConfig({
    email: {
      config: {
        provider: 'nodemailer',
        providerOptions: { host: '127.0.0.1', port, secure: false, ignoreTLS: true, auth: { user: 'folio', pass: 'secret' } },
        settings: { defaultFrom: 'Folio <no-reply@folio.test>', defaultReplyTo: 'help@folio.test' },
      },
    },
  });
}

function mailer(config: EmailConfig, env: 'development' | 'production' | 'test' = 'production', log: (line: string) => void = () => undefined): Mailer {
  const m = createMailer(config, { env, log });
  open.push(m);
  return m;
}

const USER = { id: 1, username: 'ann', email: 'ann@example.com' };

describe('the nodemailer mailer', () => {
  it('delivers a rendered reset mail over SMTP with the default sender and reply-to', async () => {
    const s = await sink();
    const m = mailer(smtpConfig(s.port));
    m.ensureCanSend();
    const mail = renderMail(emailTemplates({}).reset_password, { URL: 'http://app.test/reset', USER, TOKEN: 'a1b2c3' });
    await m.send({ to: 'ann@example.com', ...mail });
    const got = await s.next();
    expect(s.recipients[0]).toEqual(['ann@example.com']);
    expect(got.to && !Array.isArray(got.to) ? got.to.value.map((a) => a.address) : null).toEqual(['ann@example.com']);
    expect(got.from?.value).toEqual([{ name: 'Folio', address: 'no-reply@folio.test' }]);
    expect(got.replyTo?.value).toEqual([{ name: '', address: 'help@folio.test' }]);
    expect(got.subject).toBe('Reset password');
    expect(got.html).toContain('<p>http://app.test/reset?code=a1b2c3</p>');
    expect(got.text).toContain('http://app.test/reset?code=a1b2c3');
    expect(got.text).not.toContain('<p>');
  });

  it("uses the template's sender and reply-to when it has them", async () => {
    const s = await sink();
    const m = mailer(smtpConfig(s.port));
    const t = emailTemplates({
      emailTemplates: {
        email_confirmation: { options: { from: { name: 'My App', email: 'hello@app.test' }, response_email: 'support@app.test', object: 'Welcome <%= USER.username %>' } },
      },
    });
    await m.send({ to: 'ann@example.com', ...renderMail(t.email_confirmation, { URL: 'http://api.test/api/auth/email-confirmation', USER, CODE: 'c0ffee' }) });
    const got = await s.next();
    expect(got.from?.value).toEqual([{ name: 'My App', address: 'hello@app.test' }]);
    expect(got.replyTo?.value[0]?.address).toBe('support@app.test');
    expect(got.subject).toBe('Welcome ann');
    expect(got.html).toContain('http://api.test/api/auth/email-confirmation?confirmation=c0ffee');
    expect(got.text).toContain('http://api.test/api/auth/email-confirmation?confirmation=c0ffee');
  });

  it("sends with Strapi's default sender when settings.defaultFrom is unset, and no reply-to", async () => {
    const s = await sink();
    const m = mailer({
      provider: 'nodemailer',
      unavailable: null,
      providerOptions: { host: '127.0.0.1', port: s.port, ignoreTLS: true },
      defaultFrom: DEFAULT_FROM,
      defaultReplyTo: null,
    });
    await m.send({ to: 'bob@example.com', subject: 's', text: 't', html: '<p>t</p>' });
    const got = await s.next();
    expect(got.from?.value).toEqual([{ name: 'Administration Panel', address: 'no-reply@strapi.io' }]);
    expect(got.replyTo).toBeUndefined();
  });

  it('rejects when the server refuses the recipient', async () => {
    const s = await sink({ rejectRecipient: (a) => a.endsWith('@blocked.test') });
    const m = mailer(smtpConfig(s.port));
    const sent = m.send({ to: 'eve@blocked.test', subject: 's', text: 't', html: 't' });
    await expect(sent).rejects.toBeInstanceOf(MailSendError);
    await expect(sent).rejects.toMatchObject({ responseCode: 550, message: expect.stringMatching(/^Email could not be sent: .*Mailbox eve@blocked\.test unavailable/) });
    expect(s.mails).toHaveLength(0);
    // the transport is still usable for the next mail
    await m.send({ to: 'ann@example.com', subject: 'after', text: 't', html: 't' });
    expect((await s.next()).subject).toBe('after');
  });

  it('rejects when nothing listens on the configured port', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));
    const m = mailer(smtpConfig(port));
    await expect(m.send({ to: 'ann@example.com', subject: 's', text: 't', html: 't' })).rejects.toMatchObject({
      name: 'MailSendError',
      code: expect.stringMatching(/^E(CONNECTION|SOCKET)$/),
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('closes without having sent anything', async () => {
    await createMailer(smtpConfig(1), { env: 'production', log: () => undefined }).close();
  });
});

describe('without an email provider', () => {
  const none = emailConfig({});

  it('prints each mail to the log in development and tests: recipient, subject, links and text', async () => {
    for (const env of ['development', 'test'] as const) {
      const lines: string[] = [];
      const m = mailer(none, env, (l) => lines.push(l));
      m.ensureCanSend();
      const t = emailTemplates({
        emailTemplates: { reset_password: { options: { message: '<p>Hi <%= USER.username %></p><p><a href="<%= URL %>?code=<%= TOKEN %>">Reset it</a></p>' } } },
      });
      await m.send({ to: 'ann@example.com', ...renderMail(t.reset_password, { URL: 'http://app.test/reset', USER, TOKEN: 'tok123' }) });
      const out = lines.join('\n');
      expect(out).toContain('ann@example.com');
      expect(out).toContain('Subject: Reset password');
      expect(out).toContain('Link: http://app.test/reset?code=tok123');
      expect(out).toContain('| Hi ann');
      expect(out).toContain('| Reset it (http://app.test/reset?code=tok123)');
      expect(out).toContain(`From: ${DEFAULT_FROM}`);
    }
  });

  it("shows the default template's link, which is text rather than an anchor", async () => {
    const lines: string[] = [];
    const m = mailer(none, 'development', (l) => lines.push(l));
    await m.send({ to: 'ann@example.com', ...renderMail(emailTemplates({}).email_confirmation, { URL: 'http://localhost:1337/api/auth/email-confirmation', USER, CODE: 'abc' }) });
    expect(lines).toContain('[email]   Link: http://localhost:1337/api/auth/email-confirmation?confirmation=abc');
  });

  it('refuses in production, before and at sending, naming the configuration', async () => {
    const m = mailer(none, 'production');
    expect(() => m.ensureCanSend()).toThrow(ApplicationError);
    expect(() => m.ensureCanSend()).toThrow(NOT_CONFIGURED);
    expect(NOT_CONFIGURED).toMatch(/Email is not configured.*email\.config\.provider.*'nodemailer'.*providerOptions.*config\/plugins/);
    await expect(m.send({ to: 'ann@example.com', subject: 's', text: 't', html: 't' })).rejects.toThrow(NOT_CONFIGURED);
  });

  it('with a provider Folio cannot send with: printed in development, refused in production naming it', async () => {
    const mailgun = emailConfig({ email: { config: { provider: 'mailgun', providerOptions: { key: 'k', domain: 'd' } } } });
    const lines: string[] = [];
    await mailer(mailgun, 'development', (l) => lines.push(l)).send({ to: 'ann@example.com', subject: 'Hi', text: 't', html: 't' });
    expect(lines.join('\n')).toContain('ann@example.com');
    const m = mailer(mailgun, 'production');
    const reason = 'plugins.email.config.provider "mailgun" is not one Folio can send with (nodemailer\'s SMTP, or sendgrid through SendGrid\'s SMTP relay)';
    expect(() => m.ensureCanSend()).toThrow(new ApplicationError(reason));
    await expect(m.send({ to: 'ann@example.com', subject: 's', text: 't', html: 't' })).rejects.toThrow(reason);
    expect(describeMailer(mailgun, 'production')).toBe(`Email: ${reason}; flows that send mail (password reset, email confirmation) will fail`);
  });

  it('describes where mail goes, for start-up', () => {
    expect(describeMailer(none, 'development')).toMatch(/printed to this log/);
    expect(describeMailer(none, 'production')).toMatch(/will fail/);
    expect(describeMailer(smtpConfig(2525), 'production')).toBe('Email: SMTP via 127.0.0.1:2525, from Folio <no-reply@folio.test>');
    const sendgrid = emailConfig({ email: { config: { provider: 'sendgrid', providerOptions: { apiKey: 'SG.x' } } } });
    expect(describeMailer(sendgrid, 'production')).toBe(`Email: SMTP via smtp.sendgrid.net:587, from ${DEFAULT_FROM}`);
  });
});
