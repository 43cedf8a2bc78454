// A stored json/blocks value written into the response as its stored text, not parsed and then
// serialized again (a quarter of an uncached list's CPU on SQLite went to that round trip).
//
// JSON.stringify can't write text of its own choosing: a StoredJson stands in its place as a mark
// while the response is serialized, and the marks are then replaced by the texts, in the order they
// were written. Anywhere else a StoredJson serializes as its parsed value, so a value that reaches
// other code (a log, an email, another serializer) is still the right JSON.
import { randomBytes } from 'node:crypto';
import type { Formatter } from './format-value.js';
import { parseStoredJson } from './format-value.js';
import { MAX_STORED_JSON_DEPTH } from './json-depth.js';
import { isJsonText } from './json-text.js';

// per process and never written out: a stored string can't know it, and one that equals it anyway
// makes the counts disagree (below), which falls back to the plain serialization
const MARK = `\u0000folio-stored-json:${randomBytes(16).toString('base64url')}`;
const WRITTEN_MARK = JSON.stringify(MARK);

/** the texts of the serialization under way, in the order their marks were written */
let collecting: string[] | null = null;

export class StoredJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.text) as unknown;
    collecting.push(this.text);
    return MARK;
  }
}

/**
 * A stored json/blocks column's value for a response: its text kept as it is when it is one JSON
 * value no deeper than stored values may be; otherwise parsed as before (text that is not JSON, or
 * deeper, is answered as a string).
 */
export const storedJsonForResponse: Formatter = (v) => (typeof v === 'string' && isJsonText(v, MAX_STORED_JSON_DEPTH) ? new StoredJson(v) : parseStoredJson(v));

function stringifyPlain(payload: unknown): string {
  const outer = collecting;
  collecting = null;
  try {
    return JSON.stringify(payload);
  } finally {
    collecting = outer;
  }
}

/** JSON.stringify, with each StoredJson written as its text. */
export function stringifyResponse(payload: unknown): string {
  const texts: string[] = [];
  const outer = collecting;
  collecting = texts;
  let out: string;
  try {
    out = JSON.stringify(payload);
  } finally {
    collecting = outer;
  }
  if (texts.length === 0) return out;
  let result = '';
  let from = 0;
  for (const text of texts) {
    const at = out.indexOf(WRITTEN_MARK, from);
    if (at === -1) return stringifyPlain(payload);
    result += out.slice(from, at) + text;
    from = at + WRITTEN_MARK.length;
  }
  if (out.includes(WRITTEN_MARK, from)) return stringifyPlain(payload);
  return result + out.slice(from);
}
