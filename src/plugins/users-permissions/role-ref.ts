// The `role` of a POST/PUT /api/users body, read as Strapi 5.54 reads it (each form seen on the
// reference): a row id (a whole number, or digits), a role's documentId (any other string), or a
// relation object — `{connect: [...]}` when creating; `connect`, `set` or the reference itself when
// updating. The first entry of a list is the one taken. A create's role of 0 or '' is no role (the
// default one, as Strapi's `if (!role)`): users-body.ts leaves it out.
import type { FieldError } from '../../errors.js';
import { fieldError, notTypeMessage } from '../../documents/input/messages.js';
import { withoutSecrets } from './body.js';

export type RoleRef = { readonly id: number } | { readonly documentId: string };

export type RoleRead =
  | { readonly kind: 'ref'; readonly ref: RoleRef; readonly echo: unknown }
  /** `late`: Strapi finds it only once the body's checks passed, so it is not listed beside theirs */
  | { readonly kind: 'error'; readonly error: FieldError; readonly late?: boolean }
  /** an update's `{connect: []}`: the role stays as it is */
  | { readonly kind: 'unchanged' };

const PATH = ['role'];

function strapiIdError(v: unknown): RoleRead {
  const shown = withoutSecrets(v);
  return { kind: 'error', error: fieldError(PATH, notTypeMessage(PATH, 'strapiID', shown), shown) };
}

/** a scalar or `{id}` / `{documentId}` entry; `echo` is the reference in the relation form an error shows */
function entryRef(v: unknown, echo: unknown): RoleRead {
  if (typeof v === 'boolean') return strapiIdError(v);
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? { kind: 'ref', ref: { id: v }, echo } : strapiIdError(v);
  if (typeof v === 'string') return { kind: 'ref', ref: /^\d+$/.test(v) ? { id: Number(v) } : { documentId: v }, echo };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (Object.hasOwn(o, 'documentId') && typeof o['documentId'] === 'string') return { kind: 'ref', ref: { documentId: o['documentId'] }, echo };
    if (Object.hasOwn(o, 'id')) return entryRef(o['id'], echo);
  }
  return strapiIdError(v);
}

function listOf(o: Record<string, unknown>, key: string): unknown[] | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  return Array.isArray(v) ? v : undefined;
}

export function readRoleRef(v: unknown, creating: boolean): RoleRead {
  // an update's empty string reaches Strapi's relation check as a documentId: its "Invalid relations"
  if (v === '' && !creating) return { kind: 'error', error: fieldError([], 'Invalid relations', { role: { set: [{ documentId: '' }] } }), late: true };
  if (typeof v !== 'object') return entryRef(v, { set: [{ id: v }] });
  if (v === null || Array.isArray(v)) {
    const shown = withoutSecrets(v);
    return { kind: 'error', error: fieldError(PATH, notTypeMessage(PATH, 'object', shown), shown) };
  }
  const o = v as Record<string, unknown>;
  const connect = listOf(o, 'connect');
  if (creating) {
    if (connect === undefined) {
      const given = Object.hasOwn(o, 'connect') ? o['connect'] : undefined;
      const shown = withoutSecrets(given ?? undefined);
      const message = shown === undefined ? 'role.connect is a required field' : notTypeMessage(['role', 'connect'], 'array', shown);
      return { kind: 'error', error: fieldError(['role', 'connect'], message, shown) };
    }
    if (connect.length === 0) return { kind: 'error', error: fieldError(['role', 'connect'], 'Users must have a role', connect) };
    return entryRef(connect[0], withoutSecrets(o));
  }
  const echo = withoutSecrets(o);
  if (connect !== undefined && connect.length > 0) return entryRef(connect[0], echo);
  const disconnect = listOf(o, 'disconnect');
  if (disconnect !== undefined && disconnect.length > 0) return { kind: 'error', error: fieldError(['role', 'disconnect'], 'Cannot remove role', withoutSecrets(disconnect)) };
  const set = listOf(o, 'set');
  // Strapi's `set: []` leaves the user without a role, who then may do nothing at all: refused here
  if (set !== undefined) return set.length > 0 ? entryRef(set[0], echo) : { kind: 'error', error: fieldError(['role', 'set'], 'Cannot remove role', set) };
  // the reference itself ({id} or {documentId}); an object naming none of these changes nothing, as in Strapi
  if (Object.hasOwn(o, 'id') || Object.hasOwn(o, 'documentId')) return entryRef(o, { set: [echo] });
  return { kind: 'unchanged' };
}
