// The pure parts of the upload plugin: configuration, names, type decisions, format planning.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { DEFAULT_SIZE_LIMIT, humanSize, resolveUploadConfig } from '../../src/plugins/upload/config.js';
import { plannedFormats, strapiFormatOrder } from '../../src/plugins/upload/formats.js';
import { refusal, storedExtension } from '../../src/plugins/upload/mime.js';
import { checkedName, fileHash, isSafeObjectName, slug } from '../../src/plugins/upload/names.js';
import { objectUrlPrefix } from '../../src/plugins/upload/providers/s3.js';

describe('configuration', () => {
  it('defaults: local provider in <project>/public/uploads, 200 MiB, HTML denied', () => {
    const c = resolveUploadConfig({}, '/srv/site');
    expect(c).toMatchObject({
      provider: 'local',
      sizeLimit: DEFAULT_SIZE_LIMIT,
      uploadsDir: '/srv/site/public/uploads',
      allowedTypes: null,
      deniedTypes: ['text/html', 'application/xhtml+xml'],
      s3: null,
    });
    expect(DEFAULT_SIZE_LIMIT).toBe(209715200);
    expect(c.breakpoints.map((b) => [b.key, b.size])).toEqual([
      ['large', 1000],
      ['medium', 750],
      ['small', 500],
    ]);
  });

  it('reads the S3 settings', () => {
    const c = resolveUploadConfig(
      {
        UPLOAD_PROVIDER: 's3',
        S3_BUCKET: 'b',
        S3_REGION: 'eu-west-3',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PRIVATE: 'true',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
        UPLOAD_SIZE_LIMIT: '1000',
      },
      '/srv/site',
    );
    expect(c.sizeLimit).toBe(1000);
    expect(c.s3).toEqual({
      bucket: 'b',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      private: true,
      signedUrlExpires: 900,
      baseUrl: null,
    });
  });

  it('refuses bad values at start-up with the variable named', () => {
    expect(() => resolveUploadConfig({ UPLOAD_PROVIDER: 'ftp' }, '/x')).toThrow(new ConfigError('UPLOAD_PROVIDER=ftp: expected local or s3'));
    expect(() => resolveUploadConfig({ UPLOAD_SIZE_LIMIT: '10MB' }, '/x')).toThrow(ConfigError);
    expect(() => resolveUploadConfig({ UPLOAD_PROVIDER: 's3' }, '/x')).toThrow(new ConfigError('UPLOAD_PROVIDER=s3 needs S3_BUCKET'));
    expect(() => resolveUploadConfig({ UPLOAD_PROVIDER: 's3', S3_BUCKET: 'b', S3_PRIVATE: 'maybe' }, '/x')).toThrow(ConfigError);
  });

  it('object URLs: base URL, path style, virtual host, AWS', () => {
    const base = { bucket: 'b', region: 'eu-west-3', accessKeyId: null, secretAccessKey: null, private: false, signedUrlExpires: 900 };
    expect(objectUrlPrefix({ ...base, endpoint: null, forcePathStyle: false, baseUrl: 'https://cdn.example.test' })).toBe('https://cdn.example.test');
    expect(objectUrlPrefix({ ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, baseUrl: null })).toBe('http://127.0.0.1:9000/b');
    expect(objectUrlPrefix({ ...base, endpoint: 'https://s3.example.test', forcePathStyle: false, baseUrl: null })).toBe('https://b.s3.example.test');
    expect(objectUrlPrefix({ ...base, endpoint: null, forcePathStyle: false, baseUrl: null })).toBe('https://b.s3.eu-west-3.amazonaws.com');
  });

  it('human sizes', () => {
    expect(humanSize(209715200)).toBe('200 MB');
    expect(humanSize(1536)).toBe('1.5 KB');
    expect(humanSize(12)).toBe('12 B');
  });
});

describe('names', () => {
  it('hash = slug of the base name + 10 hex digits', () => {
    expect(fileHash('My Photo (1).PNG', '.PNG')).toMatch(/^My_Photo_1_[0-9a-f]{10}$/);
    expect(fileHash('Été à Paris.jpg', '.jpg')).toMatch(/^Ete_a_Paris_[0-9a-f]{10}$/);
    expect(fileHash('--- ().txt', '.txt')).toMatch(/^_[0-9a-f]{10}$/);
    expect(fileHash('.png', '.png')).toMatch(/^_[0-9a-f]{10}$/);
    // the last path segment, less the extension the file was sent with (Strapi 5.54's path.basename(name, ext))
    expect(fileHash('../../tmp/h4pwn.html', '.svg')).toMatch(/^h4pwn_html_[0-9a-f]{10}$/);
    expect(fileHash('renamed.jpeg', '.jpg')).toMatch(/^renamed_jpeg_[0-9a-f]{10}$/);
    // as Strapi 5.54 slugs names (checked on the reference): transliterated, camel-case split, case kept
    expect(slug('日本語')).toBe('');
    expect(slug('Привет мир')).toBe('Privet_mir');
    expect(slug('Straße Æble')).toBe('Strasse_A_Eble');
    expect(slug('über')).toBe('ueber');
    expect(slug('Été ünïcødé 日本語 🎉')).toBe('Ete_uenicode');
    expect(slug('MyPhoto')).toBe('My_Photo');
    expect(slug('x'.repeat(300))).toHaveLength(64);
  });

  it('names with control characters are refused; others are kept as labels', () => {
    expect(() => checkedName('a\u0000b')).toThrow('File name contains invalid characters');
    expect(() => checkedName('line\nbreak')).toThrow('File name contains invalid characters');
    expect(checkedName('a/b\\c <d>.txt')).toBe('a/b\\c <d>.txt');
  });

  it('stored object names are plain', () => {
    expect(isSafeObjectName('thumbnail_a_0123456789.png')).toBe(true);
    for (const bad of ['../x', '.env', 'a/b', 'a\\b', '', 'x..png', 'a b']) expect(isSafeObjectName(bad), bad).toBe(false);
  });
});

describe('types', () => {
  const png = { mime: 'image/png', ext: '.png' };
  const html = { mime: 'text/html', ext: '.html' };
  const svg = { mime: 'image/svg+xml', ext: '.svg' };
  const text = { mime: 'text/plain', ext: '.txt' };

  it('the stored extension always agrees with the bytes for anything shown inline or run', () => {
    expect(storedExtension('.PNG', png)).toBe('.PNG');
    expect(storedExtension('.jpg', png)).toBe('.png');
    expect(storedExtension('.png', html)).toBe('.html');
    expect(storedExtension('.weird', html)).toBe('.html');
    expect(storedExtension('.png', svg)).toBe('.svg');
    expect(storedExtension('.docx', { mime: 'application/zip', ext: '.zip' })).toBe('.docx');
    expect(storedExtension('.log', text)).toBe('.log');
    expect(storedExtension('', text)).toBe('.txt');
    // without one sent, mime-db's first extension for the type, as Strapi 5.54 takes it, where files are served as that type
    expect(storedExtension('', { mime: 'image/jpeg', ext: '.jpg' }, 'jpeg')).toBe('.jpeg');
    expect(storedExtension('', { mime: 'audio/mpeg', ext: '.mp3' }, 'mpga')).toBe('.mp3');
    expect(storedExtension('.p n g', png)).toBe('.png');
  });

  it('allow and deny patterns', () => {
    expect(refusal('image/png', null, ['text/html'])).toBeNull();
    expect(refusal('text/html', null, ['text/html'])).toBe("File type 'text/html' is not allowed");
    expect(refusal('video/mp4', ['image/*', 'application/pdf'], [])).toBe("File type 'video/mp4' is not allowed");
    expect(refusal('image/webp', ['image/*'], [])).toBeNull();
    expect(refusal('image/svg+xml', ['image/*'], ['image/svg+xml'])).toBe("File type 'image/svg+xml' is not allowed");
  });
});

describe('formats', () => {
  const bp = [
    { key: 'large', size: 1000 },
    { key: 'medium', size: 750 },
    { key: 'small', size: 500 },
  ];
  it('thumbnail when larger than 245×156; a breakpoint when width or height exceeds it', () => {
    expect(plannedFormats({ width: 245, height: 156 }, bp)).toEqual([]);
    expect(plannedFormats({ width: 246, height: 10 }, bp).map((f) => f.key)).toEqual(['thumbnail']);
    expect(plannedFormats({ width: 100, height: 501 }, bp).map((f) => f.key)).toEqual(['thumbnail', 'small']);
    expect(plannedFormats({ width: 1001, height: 10 }, bp).map((f) => f.key)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    expect(plannedFormats({ width: 1000, height: 1000 }, bp).map((f) => f.key)).toEqual(['thumbnail', 'medium', 'small']);
  });

  it("formats are listed as Strapi 5.54's local uploads end on SQLite: the thumbnail, then the smallest first", () => {
    const made = [
      { key: 'thumbnail', size: 9_000 },
      { key: 'large', size: 248_600 },
      { key: 'medium', size: 140_000 },
      { key: 'small', size: 48_673 },
    ];
    expect(strapiFormatOrder(made).map((f) => f.key)).toEqual(['thumbnail', 'small', 'medium', 'large']);
    // a breakpoint smaller than the thumbnail still comes after it (the thumbnail is stored before the others are made)
    const tiny = [
      { key: 'thumbnail', size: 9_000 },
      { key: 'xsmall', size: 2_000 },
      { key: 'a', size: 50_000 },
      { key: 'b', size: 50_000 },
    ];
    expect(strapiFormatOrder(tiny).map((f) => f.key)).toEqual(['thumbnail', 'xsmall', 'a', 'b']);
  });
});
