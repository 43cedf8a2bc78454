// A one-pixel PNG uploaded through the media library, for tests that need files to link.
import { expect } from 'vitest';
import type { TestApp } from './app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Uploads a one-pixel PNG named `name`; answers the file's id. */
export async function uploadTinyPng(t: TestApp, name: string): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([PNG], { type: 'image/png' }), name);
  const r = await t.request('POST', '/api/upload', { raw: form });
  expect(r.status, r.text).toBe(201);
  return r.body[0].id as number;
}
