import { describe, expect, it } from 'vitest';
import { DEFAULT_FROM, emailConfig } from '../../src/config/email-config.js';

const plugins = (config: unknown): Record<string, unknown> => ({ email: { config } });

describe('emailConfig', () => {
  it("has no provider and Strapi's users-permissions sender when nothing is configured", () => {
    expect(emailConfig({})).toEqual({ provider: null, unavailable: null, providerOptions: {}, defaultFrom: DEFAULT_FROM, defaultReplyTo: null });
    expect(DEFAULT_FROM).toBe('Administration Panel <no-reply@strapi.io>');
    expect(emailConfig(plugins({ provider: '' })).provider).toBeNull();
  });

  it('reads the nodemailer provider under any of its Strapi names, with options and settings', () => {
    for (const name of ['nodemailer', '@strapi/provider-email-nodemailer', 'strapi-provider-email-nodemailer', 'Nodemailer']) {
      const c = emailConfig(
        plugins({
          provider: name,
          providerOptions: { host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'u', pass: 'p' } },
          settings: { defaultFrom: 'App <hello@example.com>', defaultReplyTo: 'help@example.com' },
        }),
      );
      expect(c).toEqual({
        provider: 'nodemailer',
        unavailable: null,
        providerOptions: { host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'u', pass: 'p' } },
        defaultFrom: 'App <hello@example.com>',
        defaultReplyTo: 'help@example.com',
      });
    }
  });

  it('accepts a port from an environment variable (a numeric string)', () => {
    expect(emailConfig(plugins({ provider: 'nodemailer', providerOptions: { port: '2525' } })).providerOptions).toEqual({ port: '2525' });
  });

  it('sends SendGrid mail through SendGrid\'s SMTP relay, the API key as the password of "apikey", under any of its names', () => {
    for (const name of ['sendgrid', '@strapi/provider-email-sendgrid', 'strapi-provider-email-sendgrid']) {
      expect(emailConfig(plugins({ provider: name, providerOptions: { apiKey: 'SG.key' }, settings: { defaultFrom: 'a@example.com' } }))).toEqual({
        provider: 'nodemailer',
        unavailable: null,
        providerOptions: { host: 'smtp.sendgrid.net', port: 587, secure: false, auth: { user: 'apikey', pass: 'SG.key' } },
        defaultFrom: 'a@example.com',
        defaultReplyTo: null,
      });
    }
  });

  it('starts without a SendGrid key (an unset environment variable), saying mail cannot be sent', () => {
    for (const providerOptions of [{}, { apiKey: undefined }, { apiKey: '' }, undefined]) {
      expect(emailConfig(plugins({ provider: 'sendgrid', providerOptions }))).toMatchObject({
        provider: null,
        unavailable: "plugins.email.config.providerOptions.apiKey is not set: mail can't be sent through SendGrid",
      });
    }
    expect(() => emailConfig(plugins({ provider: 'sendgrid', providerOptions: { apiKey: 42 } }))).toThrow(/providerOptions\.apiKey must be a string/);
  });

  it('starts with a provider it cannot send with, naming it and what it can send with', () => {
    expect(emailConfig(plugins({ provider: 'sendmail' }))).toMatchObject({
      provider: null,
      unavailable: 'plugins.email.config.provider "sendmail" is not one Folio can send with (nodemailer\'s SMTP, or sendgrid through SendGrid\'s SMTP relay)',
    });
    expect(() => emailConfig(plugins({ provider: 42 }))).toThrow(/plugins\.email\.config\.provider must be a string/);
  });

  it('names the key of a bad option or setting', () => {
    expect(() => emailConfig(plugins({ provider: 'nodemailer', providerOptions: 'smtp://x' }))).toThrow(/plugins\.email\.config\.providerOptions must be an object/);
    expect(() => emailConfig(plugins({ provider: 'nodemailer', providerOptions: { port: 'smtp' } }))).toThrow(
      /plugins\.email\.config\.providerOptions\.port must be a port number/,
    );
    expect(() => emailConfig(plugins({ provider: 'nodemailer', providerOptions: { host: 1 } }))).toThrow(/plugins\.email\.config\.providerOptions\.host must be a string/);
    expect(() => emailConfig(plugins({ provider: 'nodemailer', providerOptions: { auth: 'u:p' } }))).toThrow(/providerOptions\.auth must be an object/);
    expect(() => emailConfig(plugins({ settings: { defaultFrom: 1 } }))).toThrow(/plugins\.email\.config\.settings\.defaultFrom must be a string/);
    expect(() => emailConfig(plugins({ settings: 'x' }))).toThrow(/plugins\.email\.config\.settings must be an object/);
  });
});
