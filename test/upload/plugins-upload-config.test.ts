// config/plugins' upload.config as a Strapi project writes it: sizeLimit is honoured (Strapi answers a
// larger file with 413), and a provider or settings Folio doesn't run are named at start-up instead of
// being ignored in silence (mfarazzzz/Backend-Strapi sets sizeLimit; DesumovJP/CoffeePOS uses aws-s3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/errors.js';
import { project, SECRETS } from '../config/helpers.js';
import { fetchAll, filePart, png, startUploadApp, type UploadApp } from './helpers.js';

const PLUGINS = `module.exports = ({ env }) => ({
  upload: { config: { sizeLimit: 200 * 1024, provider: 'aws-s3', providerOptions: { s3Options: { region: env('AWS_REGION', 'eu-west-1') } }, breakpoints: { wide: 700, small: 500 } } },
});`;

describe('plugins.upload.config', () => {
  let app: UploadApp;
  let warnings: readonly string[];
  beforeAll(async () => {
    const loaded = await loadConfig(project({ 'config/plugins.js': PLUGINS }), { ...SECRETS }, { writeEnvFile: false });
    warnings = loaded.warnings;
    expect(loaded.config.upload).toEqual({
      sizeLimit: 200 * 1024,
      breakpoints: [
        { key: 'wide', size: 700 },
        { key: 'small', size: 500 },
      ],
      allowedTypes: null,
      deniedTypes: null,
      uploadsCacheControl: null,
    });
    app = await startUploadApp({}, { upload: loaded.config.upload });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('what Folio does not run is named at start-up', () => {
    expect(warnings).toEqual(
      expect.arrayContaining([
        'plugins.upload.config.provider "aws-s3" is not run by Folio: files are stored on local disk unless UPLOAD_PROVIDER=s3 and S3_* are set (README, "Media library")',
        'Ignored plugins.upload.config.providerOptions.s3Options: the provider\'s settings are the UPLOAD_* and S3_* variables (README, "Media library")',
      ]),
    );
  });

  it('sizeLimit bounds each file, as Strapi answers past it', async () => {
    const big = await app.upload([filePart(Buffer.alloc(300 * 1024, 1), 'big.bin')]);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ name: 'PayloadTooLargeError', message: 'big.bin exceeds size limit of 200 KB.' });
    expect((await app.upload([filePart(Buffer.alloc(1000, 1), 'small.bin')])).status).toBe(201);
  });

  it('breakpoints name the responsive formats an image gets, beside its thumbnail', async () => {
    const r = await app.upload([filePart(await png(800, 600), 'photo.png', 'image/png')]);
    expect(r.status, r.text).toBe(201);
    const formats = r.body[0].formats as Record<string, { width: number; height: number }>;
    expect(Object.keys(formats)).toEqual(['thumbnail', 'small', 'wide']);
    expect([formats['wide']!.width, formats['small']!.width]).toEqual([700, 500]);
  });

  it('a sizeLimit or breakpoint that is no positive whole number is refused naming the key', async () => {
    const e = await loadConfig(project({ 'config/plugins.json': JSON.stringify({ upload: { config: { sizeLimit: '2mb' } } }) }), { ...SECRETS }, { writeEnvFile: false }).catch(
      (err: unknown) => err,
    );
    expect(e).toEqual(new ConfigError('plugins.upload.config.sizeLimit must be a positive whole number of bytes, got "2mb"'));
    const bp = await loadConfig(
      project({ 'config/plugins.json': JSON.stringify({ upload: { config: { breakpoints: { large: '1000px' } } } }) }),
      { ...SECRETS },
      { writeEnvFile: false },
    ).catch((err: unknown) => err);
    expect(bp).toEqual(new ConfigError('plugins.upload.config.breakpoints.large must be a positive whole number of pixels, got "1000px"'));
    const refused = async (breakpoints: unknown): Promise<unknown> =>
      loadConfig(project({ 'config/plugins.json': JSON.stringify({ upload: { config: { breakpoints } } }) }), { ...SECRETS }, { writeEnvFile: false }).catch((err: unknown) => err);
    expect(await refused({ thumbnail: 200 })).toEqual(
      new ConfigError('plugins.upload.config.breakpoints.thumbnail: the thumbnail format is always made; name the breakpoint otherwise'),
    );
    expect(await refused([1000, 500])).toEqual(
      new ConfigError('plugins.upload.config.breakpoints must be an object of format names and sizes, such as { large: 1000, small: 500 }'),
    );
  });
});

describe('plugins.upload.config.providerOptions.localServer', () => {
  const load = (localServer: string) =>
    loadConfig(
      project({ 'config/plugins.js': `module.exports = { upload: { config: { providerOptions: { localServer: ${localServer} } } } };` }),
      { ...SECRETS },
      { writeEnvFile: false },
    );

  it("maxage (milliseconds) and immutable give /uploads/* their Cache-Control, as Strapi's static server writes it; other options are named as ignored", async () => {
    const loaded = await load('{ maxage: 1051200000, immutable: true, gzip: false }');
    expect(loaded.config.upload?.uploadsCacheControl).toBe('max-age=1051200,immutable');
    expect(loaded.warnings).toContain('Ignored plugins.upload.config.providerOptions.localServer.gzip: only maxage and immutable are read');
    expect(loaded.warnings.filter((w) => w.includes('providerOptions'))).toHaveLength(1);
    const app = await startUploadApp({}, { upload: loaded.config.upload });
    try {
      const up = await app.upload([filePart('cached', 'cached.txt', 'text/plain')]);
      const served = await fetchAll(app.t.url + up.body[0].url);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toBe('max-age=1051200,immutable');
    } finally {
      await app.close();
    }
    expect((await load('{ maxAge: 2500 }')).config.upload?.uploadsCacheControl).toBe('max-age=2');
    expect((await load("{ maxage: '60000' }")).config.upload?.uploadsCacheControl).toBe('max-age=60');
  });

  it('a maxage that is no number of milliseconds, or a localServer that is no object, is refused naming the key', async () => {
    await expect(load("{ maxage: '1d' }")).rejects.toThrow(new ConfigError('plugins.upload.config.providerOptions.localServer.maxage must be a number of milliseconds, got "1d"'));
    await expect(load('true')).rejects.toThrow(new ConfigError('plugins.upload.config.providerOptions.localServer must be an object such as { maxage: 300000 }'));
  });
});

describe('plugins.upload.config.security', () => {
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>';
  const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';
  const notAllowed = (mime: string): unknown => ({ status: 400, name: 'ValidationError', message: `File type '${mime}' is not allowed`, details: {} });
  const withSecurity = async (security: unknown, env: Record<string, string> = {}): Promise<UploadApp> => {
    const plugins = `module.exports = { upload: { config: { security: ${JSON.stringify(security)} } } };`;
    const loaded = await loadConfig(project({ 'config/plugins.js': plugins }), { ...SECRETS }, { writeEnvFile: false });
    return startUploadApp(env, { upload: loaded.config.upload });
  };

  it('deniedTypes refuses those types with Strapi 5.54 message, and markup stays refused', async () => {
    const app = await withSecurity({ deniedTypes: ['image/svg+xml', 'application/pdf'] });
    try {
      expect((await app.upload([filePart(SVG, 'x.svg', 'image/svg+xml')])).body.error).toEqual(notAllowed('image/svg+xml'));
      expect((await app.upload([filePart(PDF, 'x.pdf', 'application/pdf')])).body.error).toEqual(notAllowed('application/pdf'));
      expect((await app.upload([filePart('<!doctype html><p>x</p>', 'x.html', 'text/html')])).body.error).toEqual(notAllowed('text/html'));
      expect((await app.upload([filePart(await png(4, 4), 'x.png', 'image/png')])).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('allowedTypes stores only those types; UPLOAD_ALLOWED_TYPES, when set, wins', async () => {
    const app = await withSecurity({ allowedTypes: ['image/*'] });
    try {
      expect((await app.upload([filePart(PDF, 'x.pdf', 'application/pdf')])).body.error).toEqual(notAllowed('application/pdf'));
      expect((await app.upload([filePart(await png(4, 4), 'x.png', 'image/png')])).status).toBe(201);
    } finally {
      await app.close();
    }
    const env = await withSecurity({ allowedTypes: ['image/*'] }, { UPLOAD_ALLOWED_TYPES: 'application/pdf' });
    try {
      expect((await env.upload([filePart(PDF, 'x.pdf', 'application/pdf')])).status).toBe(201);
      expect((await env.upload([filePart(await png(4, 4), 'x.png', 'image/png')])).body.error).toEqual(notAllowed('image/png'));
    } finally {
      await env.close();
    }
  });

  it('a list that is no list of MIME types is refused at start-up, naming the key', async () => {
    const e = await loadConfig(
      project({ 'config/plugins.json': JSON.stringify({ upload: { config: { security: { deniedTypes: 'image/svg+xml' } } } }) }),
      { ...SECRETS },
      { writeEnvFile: false },
    ).catch((err: unknown) => err);
    expect(e).toEqual(new ConfigError(`plugins.upload.config.security.deniedTypes must be a list of MIME types such as ['image/*', 'application/pdf'], got "image/svg+xml"`));
    const notObject = await loadConfig(
      project({ 'config/plugins.json': JSON.stringify({ upload: { config: { security: 'strict' } } }) }),
      { ...SECRETS },
      { writeEnvFile: false },
    ).catch((err: unknown) => err);
    expect(notObject).toEqual(new ConfigError('plugins.upload.config.security must be an object with allowedTypes and/or deniedTypes'));
  });

  it('another key in security is named at start-up as not read', async () => {
    const loaded = await loadConfig(
      project({ 'config/plugins.json': JSON.stringify({ upload: { config: { security: { deniedTypes: ['application/pdf'], scan: true } } } }) }),
      { ...SECRETS },
      {
        writeEnvFile: false,
      },
    );
    expect(loaded.warnings).toContain('Ignored plugins.upload.config.security.scan: only allowedTypes and deniedTypes are read');
    expect(loaded.config.upload?.deniedTypes).toEqual(['application/pdf']);
  });
});
