// Heavy reads run a few at a time. Each read is bounded by its populate budget, but a burst of reads
// near that bound (200 concurrent 21 MB deep populates) held 3 GB at once and kept a one-row read
// waiting for a minute. A read starts light; once it has loaded more populated rows than a light read
// may, it stops, lets go of what it loaded and waits for one of a few heavy slots, then reads again
// from the start: a waiting read holds nothing. A read whose answer would be larger than a light one's
// takes a slot before it is serialized. A slot is held until the response has been sent.
import { ServiceUnavailableError } from '../errors.js';

/** Thrown by a light read's populate budget when it passes the light allowance (populate-budget.ts). */
export class HeavyRead extends Error {
  constructor() {
    super('this read needs a heavy-read slot');
  }
}

/**
 * Thrown to a read whose client went away while it waited for a slot: there is nobody to answer (a
 * FolioError, so it is not logged as a server fault).
 */
export class ReadAbandoned extends ServiceUnavailableError {
  constructor() {
    super('the client closed the connection while its read waited for a heavy-read slot');
  }
}

export interface HeavyReadLimits {
  /** heavy reads running at once in one process */
  readonly concurrent: number;
  /** populated rows a light read may load */
  readonly rows: number;
  /** estimated bytes of populated entries a light read may answer (populate-budget.ts) */
  readonly bytes: number;
  /** how long a heavy read may wait for a slot before it is answered 503 (ms) */
  readonly waitMs?: number;
  /** how long a heavy answer's client may read nothing before it is cut off (ms) */
  readonly stalledMs?: number;
}

export const DEFAULT_HEAVY_READS: HeavyReadLimits = { concurrent: 2, rows: 5000, bytes: 4 * 1024 * 1024 };

/**
 * How long a heavy read waits for a slot before it is answered 503, and how long a heavy answer's
 * client may read nothing before it is cut off: without them two clients that ask and never read
 * would hold both slots, and every later heavy read would wait for ever.
 */
export const SLOT_WAIT_MS = 60_000;
export const STALLED_READER_MS = 30_000;

/** Answered to a heavy read that waited SLOT_WAIT_MS for a slot. */
export class SlotWaitTooLong extends ServiceUnavailableError {
  constructor() {
    super('The server is answering as many large reads as it takes at once: send this one again shortly, or ask for less (a smaller page, fewer populated relations)');
  }
}

/** What a waiting read listens to: the client going away. */
export interface ClientConnection {
  readonly closed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

export class HeavyReadGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limits: HeavyReadLimits) {}

  /** how long a heavy answer's client may read nothing before it is cut off */
  get stalledMs(): number {
    return this.limits.stalledMs ?? STALLED_READER_MS;
  }

  /** reads holding a slot, and reads waiting for one */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  lease(): ReadLease {
    return new ReadLease(this);
  }

  /**
   * Resolves once a slot is this caller's; rejects with ReadAbandoned if the client leaves first, and
   * with SlotWaitTooLong after waitMs unless `patient` (the answer of a write already committed: a 503
   * would tell its client to send the write again).
   */
  acquire(client: ClientConnection, patient = false): Promise<void> {
    if (client.closed) return Promise.reject(new ReadAbandoned());
    if (this.running < this.limits.concurrent) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const leave = (error: Error): void => {
        if (timer) clearTimeout(timer);
        client.off('close', left);
        const at = this.waiting.indexOf(granted);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(error);
      };
      const granted = (): void => {
        if (timer) clearTimeout(timer);
        client.off('close', left);
        resolve();
      };
      const left = (): void => leave(new ReadAbandoned());
      const timer = patient ? undefined : setTimeout(() => leave(new SlotWaitTooLong()), this.limits.waitMs ?? SLOT_WAIT_MS);
      this.waiting.push(granted);
      client.once('close', left);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    // the slot passes straight to the next waiting read
    if (next) next();
    else this.running--;
  }
}

/** One read's standing at the gate: light until it takes a slot, which it then holds until released. */
export class ReadLease {
  private holding = false;
  private released = false;
  /** estimated bytes of the populated entries the read answers (populate-budget.ts) */
  private answerBytes = 0;

  constructor(private readonly gate: HeavyReadGate) {}

  get heavy(): boolean {
    return this.holding;
  }

  get lightRows(): number {
    return this.gate.limits.rows;
  }

  /** how long the client of a heavy answer may read nothing before it is cut off */
  get stalledMs(): number {
    return this.gate.stalledMs;
  }

  /** adds the estimated bytes of populated entries a part of the read answers */
  addBytes(n: number): void {
    this.answerBytes += n;
  }

  /** true when the read's answer is larger than a light read's */
  get overLightBytes(): boolean {
    return this.answerBytes > this.gate.limits.bytes;
  }

  /** `patient`: waits for as long as it takes (a committed write's answer), see HeavyReadGate.acquire */
  async takeSlot(client: ClientConnection, patient = false): Promise<void> {
    if (this.holding || this.released) return;
    await this.gate.acquire(client, patient);
    this.holding = true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.holding) this.gate.release();
  }
}
