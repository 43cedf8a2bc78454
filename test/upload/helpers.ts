// Upload test helpers: images made with sharp at test time, multipart bodies (FormData, or raw
// bytes when a test needs a header FormData wouldn't write), and an app with its own upload folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FolioConfig } from '../../src/config/types.js';
import { startTestApp, type Response, type TestApp } from '../support/app.js';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const DOC_ID = /^[a-z][a-z0-9]{23}$/;
export const HEX10 = '[0-9a-f]{10}';

export async function png(width: number, height: number, color = { r: 200, g: 30, b: 30 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();
}

export interface Part {
  readonly name: string;
  readonly value: string | Buffer;
  /** present for file parts */
  readonly filename?: string;
  readonly type?: string;
}

export function filePart(data: Buffer | string, filename: string, type = 'application/octet-stream'): Part {
  return { name: 'files', value: typeof data === 'string' ? Buffer.from(data) : data, filename, type };
}

export function field(name: string, value: unknown): Part {
  return { name, value: typeof value === 'string' ? value : JSON.stringify(value) };
}

export function form(parts: readonly Part[]): FormData {
  const fd = new FormData();
  for (const p of parts) {
    const bytes = typeof p.value === 'string' ? p.value : new Uint8Array(p.value);
    if (p.filename !== undefined) fd.append(p.name, new Blob([bytes], { type: p.type ?? 'application/octet-stream' }), p.filename);
    else fd.append(p.name, String(p.value));
  }
  return fd;
}

/** A multipart body written byte by byte: file names and types go out exactly as given, or not at all. */
export function rawMultipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----folio${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    // a part may say its type without naming a file; a file part says one
    const type = p.type ?? (p.filename !== undefined ? 'application/octet-stream' : undefined);
    if (type !== undefined) head += `\r\nContent-Type: ${type}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'latin1'), typeof p.value === 'string' ? Buffer.from(p.value) : p.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Fetched {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

/** GET of an absolute URL, body read to the end (an unread body would keep the connection busy). */
export async function fetchAll(url: string): Promise<Fetched> {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A request with any body (the shared helper only sends strings and FormData). */
export async function send(t: TestApp, method: string, path: string, body: Buffer | undefined, headers: Record<string, string> = {}, token?: string | null): Promise<Response> {
  const h: Record<string, string> = { ...headers };
  const tok = token === undefined ? t.token : token;
  if (tok) h['authorization'] = `Bearer ${tok}`;
  const res = await fetch(t.url + path, { method, headers: h, body: body === undefined ? undefined : new Uint8Array(body) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export interface UploadApp {
  readonly t: TestApp;
  readonly uploadsDir: string;
  upload(parts: readonly Part[], opts?: { token?: string | null; query?: string }): Promise<Response>;
  uploadRaw(parts: readonly Part[], opts?: { token?: string | null; query?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the app with the given upload environment and its own uploads folder. */
export async function startUploadApp(env: Record<string, string> = {}, over: Partial<FolioConfig> = {}): Promise<UploadApp> {
  const uploadsDir = mkdtempSync(join(tmpdir(), 'folio-uploads-'));
  const saved = new Map<string, string | undefined>();
  const all = { UPLOAD_DIR: uploadsDir, ...env };
  for (const [k, v] of Object.entries(all)) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
  let t: TestApp;
  try {
    t = await startTestApp(over);
  } finally {
    // the configuration is read while the app starts: the next app of the file starts clean
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const upload = (parts: readonly Part[], opts: { token?: string | null; query?: string } = {}) =>
    t.request('POST', `/api/upload${opts.query ?? ''}`, { raw: form(parts), token: opts.token });
  const uploadRaw = (parts: readonly Part[], opts: { token?: string | null; query?: string } = {}) => {
    const { body, contentType } = rawMultipart(parts);
    return send(t, 'POST', `/api/upload${opts.query ?? ''}`, body, { 'content-type': contentType }, opts.token);
  };
  return {
    t,
    uploadsDir,
    upload,
    uploadRaw,
    async close() {
      // a streamed response can look complete to the client (all Content-Length bytes in) before the
      // server ends it; such a connection isn't idle when close() runs and would hold it for the
      // keep-alive timeout
      t.app.fastify.server.closeAllConnections();
      await t.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

export function errorOf(status: number, name: string, message: string, details: Record<string, unknown> = {}): unknown {
  return { data: null, error: { status, name, message, details } };
}
