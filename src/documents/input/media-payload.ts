// A media attribute's value in a write body → the files it should hold, in order.
import { ValidationError } from '../../errors.js';
import type { MediaAttribute } from '../../schema/types.js';
import { shownValue } from './messages.js';
import type { MediaRef } from './types.js';
import { MAX_RELATION_REFS } from './relation-payload.js';
import { documentIdText, refId } from './refs.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The relation operations Strapi half-supports on media; they are refused here (behaviour.md §13 #6). */
export const MEDIA_OPERATIONS: readonly string[] = ['connect', 'disconnect', 'set', 'options'];

function fileRef(v: unknown, where: string): MediaRef {
  // a file documentId is never all digits, so a string of digits is a row id (as form fields send them)
  const id = refId(v);
  if (id !== undefined) return { id };
  if (documentIdText(v)) return { documentId: v };
  if (isObj(v)) {
    const objId = refId(v['id']);
    if (objId !== undefined) return { id: objId };
    if (documentIdText(v['documentId'])) return { documentId: v['documentId'] };
  }
  throw new ValidationError(`Invalid media value in ${where}: expected a file id, a file documentId, {id} or {documentId} but got ${shownValue(v)}`);
}

/** `null` and `[]` clear the field. `where` names the field in messages. */
export function mediaRefs(attr: MediaAttribute, value: unknown, where: string): MediaRef[] | null {
  if (value === null) return null;
  if (isObj(value)) {
    const op = MEDIA_OPERATIONS.find((k) => Object.hasOwn(value, k));
    // Strapi ignores connect on create and half-applies it on update; refusing it is the safe choice
    if (op !== undefined) throw new ValidationError(`${op} is not supported for media attributes (${where}): send the file ids`);
  }
  if (Array.isArray(value) && value.length > MAX_RELATION_REFS) {
    throw new ValidationError(`Too many files in ${where}: at most ${MAX_RELATION_REFS} in one request, got ${value.length}`);
  }
  // a null in a list names nothing, as in Strapi: [1, null] is [1], [null] clears
  const list = (Array.isArray(value) ? value.filter((v) => v !== null) : [value]).map((v) => fileRef(v, where));
  if (!attr.multiple && list.length > 1) {
    throw new ValidationError(`${where} holds a single file: send one file id, not ${list.length}`);
  }
  return list;
}
