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

interface Settle {
  readonly resolve: (r: ImageResult) => void;
  readonly reject: (e: Error) => void;
}

interface Pending extends Settle {
  /** the child working on it */
  readonly child: ChildProcess;
  /** ends the child when the job runs past its time */
  readonly timer: NodeJS.Timeout;
}

interface Queued extends Settle {
  readonly job: ImageJob;
}

export interface ImageProcessorOptions {
  /** how long an idle child is kept for the next image (ms) */
  readonly idleMs?: number;
  /** jobs the child works on at once; the others wait their turn here (default 1) */
  readonly maxJobs?: number;
  /** how long one job may run before its child is ended and its file refused (ms; default 20 s) */
  readonly jobTimeoutMs?: number;
}

/**
 * A 2 KB AVIF declaring 10,000 × 10,000 pixels took 34 s of the child's CPU and 2.7 GB, while every
 * other upload's images waited behind it; a 50-file request of them would have held the child for
 * half an hour. A photo of the largest sizes cameras make takes a few seconds per step.
 */
export const IMAGE_JOB_TIMEOUT_MS = 20_000;

export class ImageProcessor {
  private child: ChildProcess | null = null;
  /** jobs sent to the child, by id */
  private readonly pending = new Map<number, Pending>();
  /** jobs waiting for one of the child's places */
  private readonly waiting: Queued[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly idleMs: number;
  private readonly maxJobs: number;
  private readonly jobTimeoutMs: number;
  /** jobs whose child was ended because they ran past their time */
  private readonly timedOut = new Set<number>();

  constructor(options: ImageProcessorOptions = {}) {
    this.idleMs = options.idleMs ?? 5000;
    this.maxJobs = Math.max(1, options.maxJobs ?? 1);
    this.jobTimeoutMs = options.jobTimeoutMs ?? IMAGE_JOB_TIMEOUT_MS;
  }

  /** The running child's pid, or null when none runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Runs a job; an image that can't be decoded (or crashes the decoder) is a 400. The child works on
   * maxJobs jobs at a time, the rest wait: decoding takes memory in proportion to the image's pixels
   * (≈600 MB for a 10,000 × 10,000 PNG of 400 KB), so parallel uploads of such files took one such
   * amount each, without bound, until the machine ran out. One at a time also refuses, when the
   * decoder crashes, only the file that crashed it.
   */
  run(job: ImageJob): Promise<ImageResult> {
    return new Promise<ImageResult>((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.sendWaiting();
    });
  }

  private sendWaiting(): void {
    while (this.pending.size < this.maxJobs) {
      const next = this.waiting.shift();
      if (!next) return;
      let child: ChildProcess;
      try {
        child = this.ensureChild();
      } catch (e) {
        next.reject(e instanceof Error ? e : new Error(String(e)));
        continue;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.timedOut.add(id);
        child.kill('SIGKILL');
      }, this.jobTimeoutMs);
      this.pending.set(id, { resolve: next.resolve, reject: next.reject, child, timer });
      child.send({ ...next.job, id });
    }
  }

  async close(): Promise<void> {
    for (const w of this.waiting.splice(0)) w.reject(new Error('The image process stopped'));
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
    clearTimeout(p.timer);
    if (reply.ok) p.resolve(reply.result);
    else if (reply.reason === 'invalid') p.reject(new ApplicationError('File is not a valid image'));
    else p.reject(new Error(reply.message));
    this.sendWaiting();
    if (this.pending.size === 0) this.idle();
  }

  /**
   * Jobs in flight when the decoder is killed by a signal (a crash, or the memory killer) were
   * what killed it: their files are refused. Any other end is the server's fault, a 500.
   */
  private lost(child: ChildProcess, killed: boolean): void {
    if (this.child === child) this.child = null;
    // only this child's jobs: an idle child that was let go may end after a new one took the next job,
    // and one child may report its end twice ('error', then 'exit')
    for (const [id, p] of this.pending) {
      if (p.child !== child) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      if (this.timedOut.delete(id)) p.reject(new ApplicationError(`The image took longer than ${this.jobTimeoutMs / 1000} s to process: send a smaller one`));
      else p.reject(killed ? new ApplicationError('File is not a valid image') : new Error('The image process stopped'));
    }
    // the jobs still waiting had no part in it: a new child takes them
    this.sendWaiting();
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
