import { describe, expect, it } from 'vitest';
import { ApplicationError, ConfigError } from '../../src/errors.js';
import { emailTemplates, renderMail, type EmailTemplate } from '../../src/plugins/users-permissions/email-templates.js';

const USER = { id: 1, documentId: 'abc', username: 'ann', email: 'ann@example.com' };
const KEY = 'plugins.users-permissions.config.emailTemplates';

describe('users-permissions email templates', () => {
  it("reset_password: Strapi's default subject and body with the link from URL and TOKEN", () => {
    const { reset_password: t } = emailTemplates({});
    expect(t.from).toBeNull();
    expect(t.replyTo).toBeNull();
    const m = renderMail(t, { URL: 'http://app.test/reset', SERVER_URL: 'http://api.test', ADMIN_URL: 'http://api.test/admin', USER, TOKEN: 'f00d' });
    expect(m.subject).toBe('Reset password');
    expect(m.html).toContain('<p>http://app.test/reset?code=f00d</p>');
    expect(m.html).toContain('We heard that you lost your password. Sorry about that!');
    expect(m.text).toBe(
      'We heard that you lost your password. Sorry about that!\n\nBut don’t worry! You can use the following link to reset your password:\n\nhttp://app.test/reset?code=f00d\n\nThanks.',
    );
    expect(m.from).toBeUndefined();
    expect(m.replyTo).toBeUndefined();
  });

  it('email_confirmation: the link from URL and CODE', () => {
    const { email_confirmation: t } = emailTemplates({});
    const m = renderMail(t, { URL: 'http://api.test/api/auth/email-confirmation', SERVER_URL: 'http://api.test', ADMIN_URL: '', USER, CODE: 'c0de' });
    expect(m.subject).toBe('Account confirmation');
    expect(m.html).toContain('http://api.test/api/auth/email-confirmation?confirmation=c0de');
    expect(m.text).toContain('Thank you for registering!');
    expect(m.text).toContain('http://api.test/api/auth/email-confirmation?confirmation=c0de');
  });

  it('an unset URL reads as empty, as Strapi prints null', () => {
    const m = renderMail(emailTemplates({}).reset_password, { URL: null, USER, TOKEN: 't' });
    expect(m.text).toContain('\n?code=t\n');
  });

  it('takes overrides in the shape Strapi stores them', () => {
    const t = emailTemplates({
      emailTemplates: {
        reset_password: {
          display: 'Email.template.reset_password',
          icon: 'sync',
          options: {
            from: { name: 'My App', email: 'hello@example.com' },
            response_email: 'support@example.com',
            object: 'Password help for <%= USER.username %>',
            message: '<p>Hi <%= USER.username %>,</p><p><a href="<%= URL %>?code=<%= TOKEN %>&amp;x=1">Choose a new password</a></p>',
          },
        },
        // without the options wrapper, and only the subject: the rest stays Strapi's
        email_confirmation: { object: 'Welcome' },
      },
    });
    const m = renderMail(t.reset_password, { URL: 'https://app.test/reset', USER, TOKEN: 'abc' });
    expect(m.subject).toBe('Password help for ann');
    expect(m.from).toBe('My App <hello@example.com>');
    expect(m.replyTo).toBe('support@example.com');
    expect(m.html).toBe('<p>Hi ann,</p><p><a href="https://app.test/reset?code=abc&amp;x=1">Choose a new password</a></p>');
    expect(m.text).toBe('Hi ann,\n\nChoose a new password (https://app.test/reset?code=abc&x=1)');
    expect(t.email_confirmation.subject).toBe('Welcome');
    expect(t.email_confirmation.message).toBe(emailTemplates({}).email_confirmation.message);
  });

  it('quotes a sender name with address punctuation; an empty from leaves the sender to the settings', () => {
    const t = emailTemplates({
      emailTemplates: {
        reset_password: { options: { from: { name: 'Acme, Inc.', email: 'a@acme.test' } } },
        email_confirmation: { options: { from: { name: '', email: '' }, response_email: '' } },
      },
    });
    expect(renderMail(t.reset_password, { USER, TOKEN: 'x' }).from).toBe('"Acme, Inc." <a@acme.test>');
    expect(t.email_confirmation.from).toBeNull();
    expect(t.email_confirmation.replyTo).toBeNull();
  });

  it('escapes values in the HTML body, so a username cannot inject markup', () => {
    const t = emailTemplates({
      emailTemplates: {
        email_confirmation: {
          options: { object: 'Hello <%= USER.username %>', message: '<p>Hello <%= USER.username %></p><p><a href="<%= URL %>?confirmation=<%= CODE %>">confirm</a></p>' },
        },
      },
    });
    const evil = { ...USER, username: '<script>alert(1)</script>"><img src=x onerror=alert(2)>' };
    const m = renderMail(t.email_confirmation, { URL: 'http://api.test/c', USER: evil, CODE: 'k' });
    expect(m.html).not.toContain('<script>');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</p>');
    // the text part is plain text: the name reads as written, and is not markup there
    expect(m.text).toContain('Hello <script>alert(1)</script>"><img src=x onerror=alert(2)>');
    expect(m.text).toContain('confirm (http://api.test/c?confirmation=k)');
    expect(m.subject).toBe('Hello <script>alert(1)</script>"><img src=x onerror=alert(2)>');
  });

  it('keeps a subject on one line', () => {
    const t = emailTemplates({ emailTemplates: { reset_password: { options: { object: 'For <%= USER.username %>' } } } });
    expect(renderMail(t.reset_password, { USER: { username: 'a\r\nBcc: x@y.z' }, TOKEN: '' }).subject).toBe('For a Bcc: x@y.z');
  });

  it('reads only own properties of a variable', () => {
    const t = emailTemplates({ emailTemplates: { reset_password: { options: { message: '[<%= USER.constructor %>][<%= USER.email %>]' } } } });
    expect(renderMail(t.reset_password, { USER, TOKEN: 'x' }).html).toBe('[][ann@example.com]');
  });

  it('refuses templates that would evaluate code: at start-up as a ConfigError naming the key', () => {
    const bad = ['<% console.log(1) %>', '<%- USER %>', '<%= process.exit() %>', '<%= USER["x"] %>', '<%= TOKEN', '<%= CODE %>', '<%= URL.length %>'];
    for (const message of bad) {
      const f = (): unknown => emailTemplates({ emailTemplates: { reset_password: { options: { message } } } });
      expect(f, message).toThrow(ConfigError);
      expect(f, message).toThrow(`${KEY}.reset_password.options.message: `);
    }
    expect(() => emailTemplates({ emailTemplates: { email_confirmation: { object: 'Hi <%=USER.username%> <% if (1) { %>' } } })).toThrow(
      `${KEY}.email_confirmation.object: only <%= VARIABLE %> is allowed, found "<% if (1) { %>"`,
    );
  });

  it('refuses them at render time as Strapi does: ApplicationError "Invalid email template"', () => {
    const t: EmailTemplate = { from: null, replyTo: null, subject: 'x', message: '<p><% global.process.exit(1) %></p>' };
    expect(() => renderMail(t, { USER })).toThrow(ApplicationError);
    expect(() => renderMail(t, { USER })).toThrow('Invalid email template');
    expect(() => renderMail({ ...t, message: 'ok', subject: '<%= SECRET %>' }, { USER })).toThrow('Invalid email template');
  });

  it('names the key of a bad override', () => {
    const at =
      (emailTemplatesValue: unknown): (() => unknown) =>
      () =>
        emailTemplates({ emailTemplates: emailTemplatesValue });
    expect(at('x')).toThrow(`${KEY} must be an object`);
    expect(at({ forgot_password: {} })).toThrow(`${KEY} has unknown template forgot_password: expected reset_password or email_confirmation`);
    expect(at({ reset_password: { options: { subject: 'x' } } })).toThrow(`${KEY}.reset_password.options has unknown key subject (the subject is called object, as in Strapi)`);
    expect(at({ reset_password: { options: {}, extra: 1 } })).toThrow(`${KEY}.reset_password has unknown key extra`);
    expect(at({ reset_password: { options: { from: { name: 'A', email: 'not-an-address' } } } })).toThrow(`${KEY}.reset_password.options.from.email must be an email address`);
    expect(at({ reset_password: { options: { from: 'a@b.c' } } })).toThrow(`${KEY}.reset_password.options.from must be { name, email }`);
    expect(at({ reset_password: { options: { response_email: 'nope' } } })).toThrow(`${KEY}.reset_password.options.response_email must be an email address`);
    expect(at({ email_confirmation: { message: 7 } })).toThrow(`${KEY}.email_confirmation.message must be a non-empty string`);
    expect(at({ email_confirmation: { message: '' } })).toThrow(`${KEY}.email_confirmation.message must be a non-empty string`);
  });
});
