// Image work (sharp / libvips) runs in a child process, started on the first image and let go
// after a few idle seconds. libvips' thread pool leaves tens of MB of malloc arenas behind in the
// process that used it (≈60 MB after a handful of uploads, never returned), and a decoder crash
// on a hostile file would otherwise take the server down with it.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApplicationError } from '../../errors.js';
import type { ImageJob, ImageReply, ImageResult } from './image-jobs.js';

/**
 * The compiled child entry: beside this module in the tsc output and in the bundle (the bundle
 * script writes dist/cli/image-worker.js). Run from the TypeScript sources (tests), it is the tsc
 * output's copy, which the test script builds first.
 */
function workerPath(): string {
  const beside = fileURLToPath(new URL('./image-worker.js', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../../../dist/plugins/upload/image-worker.js', import.meta.url));
}

interface Pending {
  readonly resolve: (r: ImageResult) => void;
  readonly reject: (e: Error) => void;
}

export interface ImageProcessorOptions {
  /** how long an idle child is kept for the next image (ms) */
  readonly idleMs?: number;
}

export class ImageProcessor {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly idleMs: number;

  constructor(options: ImageProcessorOptions = {}) {
    this.idleMs = options.idleMs ?? 5000;
  }

  /** The running child's pid, or null when none runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Runs a job; an image that can't be decoded (or crashes the decoder) is a 400. */
  run(job: ImageJob): Promise<ImageResult> {
    const child = this.ensureChild();
    const id = this.nextId++;
    return new Promise<ImageResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ ...job, id });
    });
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const child = this.child;
    if (!child) return;
    this.child = null;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.disconnect();
    await exited;
  }

  private ensureChild(): ChildProcess {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.child) {
      this.child.ref();
      this.child.channel?.ref();
      return this.child;
    }
    const path = workerPath();
    if (!existsSync(path)) throw new Error(`The image worker ${path} is missing: run the build`);
    // no inherited flags: a profiler, loader or inspector of the server must not start here too
    const child = fork(path, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json' });
    child.on('message', (reply: ImageReply) => this.settle(reply));
    child.on('exit', (code, signal) => this.lost(child, signal !== null));
    child.on('error', () => this.lost(child, false));
    this.child = child;
    return child;
  }

  private settle(reply: ImageReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.result);
    else if (reply.reason === 'invalid') p.reject(new ApplicationError('File is not a valid image'));
    else p.reject(new Error(reply.message));
    if (this.pending.size === 0) this.idle();
  }

  /**
   * Jobs in flight when the decoder is killed by a signal (a crash, or the memory killer) were
   * what killed it: their files are refused. Any other end is the server's fault, a 500.
   */
  private lost(child: ChildProcess, killed: boolean): void {
    if (this.child === child) this.child = null;
    for (const p of this.pending.values()) p.reject(killed ? new ApplicationError('File is not a valid image') : new Error('The image process stopped'));
    this.pending.clear();
  }

  /** Nothing to do: the child no longer keeps the server alive, and goes after idleMs. */
  private idle(): void {
    const child = this.child;
    if (!child) return;
    child.channel?.unref();
    child.unref();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.child === child && this.pending.size === 0) {
        this.child = null;
        if (child.connected) child.disconnect();
      }
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
