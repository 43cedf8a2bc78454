import { describe, expect, it } from 'vitest';
import { DEFAULT_FROM, emailConfig } from '../../src/config/email-config.js';
import { ConfigError } from '../../src/errors.js';

const plugins = (config: unknown): Record<string, unknown> => ({ email: { config } });

describe('emailConfig', () => {
  it("has no provider and Strapi's users-permissions sender when nothing is configured", () => {
    expect(emailConfig({})).toEqual({ provider: null, providerOptions: {}, defaultFrom: DEFAULT_FROM, defaultReplyTo: null });
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
        providerOptions: { host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'u', pass: 'p' } },
        defaultFrom: 'App <hello@example.com>',
        defaultReplyTo: 'help@example.com',
      });
    }
  });

  it('accepts a port from an environment variable (a numeric string)', () => {
    expect(emailConfig(plugins({ provider: 'nodemailer', providerOptions: { port: '2525' } })).providerOptions).toEqual({ port: '2525' });
  });

  it('refuses an unknown provider, naming the key and the supported value', () => {
    expect(() => emailConfig(plugins({ provider: 'sendmail' }))).toThrow(ConfigError);
    expect(() => emailConfig(plugins({ provider: 'sendmail' }))).toThrow(/plugins\.email\.config\.provider must be 'nodemailer'.*got "sendmail"/);
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
