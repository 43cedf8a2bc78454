// Reads under the heavy-read gate (query/heavy-reads.ts), for every route that answers documents: a
// read starts light, is run again holding a slot once it passes the light allowance, and an answer
// larger than a light one's takes a slot before it is serialized; the slot goes back once the
// response has been sent, or when its client reads nothing of it for a while.
import type { FastifyReply } from 'fastify';
import type { Database } from '../database/dialect.js';
import type { RecordedReads } from '../database/read-recording.js';
import type { Services } from './services.js';
import { jsonBytes, sendBytes } from './send-json.js';
import { HeavyRead, type ClientConnection, type ReadLease } from '../query/heavy-reads.js';

/** A read of the data an answer is made of, on `database`, standing at the heavy-read gate as `lease`. */
export type ReadFn<T = unknown> = (database: Database, lease: ReadLease) => Promise<T>;

export interface GatedValue<T> {
  readonly value: T;
  readonly reads: RecordedReads;
  readonly lease: ReadLease;
}

/**
 * Runs `read` light, and again holding a slot when it passes the light allowance. Always through
 * recordReads: that is where the dialect's read connections are (PostgreSQL's pipelined ones). The
 * lease is let go when the read fails; else it is the caller's to send with (sendGated) or let go.
 */
export async function readGated<T>(services: Services, client: ClientConnection, read: ReadFn<T>): Promise<GatedValue<T>> {
  const { database } = services;
  const lease = services.heavyReads.lease();
  try {
    try {
      return { ...(await database.recordReads((db) => read(db, lease))), lease };
    } catch (e) {
      if (!(e instanceof HeavyRead)) throw e;
      await lease.takeSlot(client);
      return { ...(await database.recordReads((db) => read(db, lease))), lease };
    }
  } catch (e) {
    lease.release();
    throw e;
  }
}

/**
 * Serializes the answer `present` makes of what was read under `lease`: one larger than a light answer
 * takes a slot first (`patient`: waiting as long as it takes, for a committed write's answer). Lets the
 * lease go on failure.
 */
export async function serializeGated(client: ClientConnection, present: () => unknown, lease: ReadLease, patient = false): Promise<Buffer> {
  try {
    if (lease.overLightBytes) await lease.takeSlot(client, patient);
    return jsonBytes(present());
  } catch (e) {
    lease.release();
    throw e;
  }
}

/**
 * Sends a gated read's body; a heavy read's slot is let go once the response is over, and a client
 * that reads nothing of it for a while (heavy-reads.ts) is cut off, giving the slot back.
 */
export function sendGated(reply: FastifyReply, body: Buffer, lease: ReadLease): FastifyReply {
  const res = reply.raw;
  if (!lease.heavy || res.closed) lease.release();
  else {
    res.once('close', () => lease.release());
    res.setTimeout(lease.stalledMs, () => res.destroy());
  }
  return sendBytes(reply, body);
}

/** Serializes and sends the answer `present` makes of what a gated read read (`patient`: see serializeGated). */
export async function sendGatedValue(reply: FastifyReply, present: () => unknown, lease: ReadLease, patient = false): Promise<FastifyReply> {
  return sendGated(reply, await serializeGated(reply.raw, present, lease, patient), lease);
}

/** Reads and sends an answer no cache keeps, under the heavy-read gate (plugins' reads: the media library, users). */
export async function serveRead(services: Services, reply: FastifyReply, read: ReadFn): Promise<FastifyReply> {
  const { value, lease } = await readGated(services, reply.raw, read);
  return sendGatedValue(reply, () => value, lease);
}
