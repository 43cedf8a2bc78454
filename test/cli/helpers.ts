// Runs the built `folio` command against a temporary copy of the example app, on the dialect the
// suite runs on (DATABASE_CLIENT), the way a user would: a child process with its own environment.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ROOT = join(EXAMPLE_DIR, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const fresh = (): boolean => existsSync(CLI) && statSync(CLI).mtimeMs >= newest(join(ROOT, 'src'));

/** Builds dist/ when it is missing or older than src/ (`npm test` has built it already). */
export async function ensureBuilt(): Promise<void> {
  // two test files may get here at once: one builds, the other waits for it
  const lock = join(ROOT, 'dist', '.build-lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (let i = 0; i < 600 && !fresh(); i++) {
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      // type errors elsewhere still emit JavaScript; the tests show whether it runs. Both steps of
      // `npm run build`: tsc alone leaves dist/cli/main.js unbundled, which bundle.test.ts refuses
      if (!fresh()) {
        spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
        spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, stdio: 'ignore' });
      }
    } finally {
      rmdirSync(lock);
    }
    return;
  }
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js was not built');
}

export interface Project {
  readonly dir: string;
  /** DATABASE_* variables pointing at this project's own fresh database */
  readonly env: Record<string, string>;
  remove(): Promise<void>;
}

function databaseEnv(db: TestDatabase, dir: string): Record<string, string> {
  const c = db.config;
  if (c.client === 'sqlite') return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: join(dir, '.tmp', 'data.db') };
  return {
    DATABASE_CLIENT: c.client,
    DATABASE_HOST: c.host ?? '',
    DATABASE_PORT: String(c.port ?? ''),
    DATABASE_NAME: c.database ?? '',
    DATABASE_USERNAME: c.user ?? '',
    DATABASE_PASSWORD: c.password ?? '',
  };
}

/** A copy of examples/blog (schema and config, no .env) with a fresh database. */
export async function copyProject(withConfig = true): Promise<Project> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
  cpSync(join(EXAMPLE_DIR, 'src'), join(dir, 'src'), { recursive: true });
  if (withConfig) cpSync(join(EXAMPLE_DIR, 'config'), join(dir, 'config'), { recursive: true });
  const db = await createTestDatabase();
  return {
    dir,
    env: databaseEnv(db, dir),
    async remove() {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A clean environment: nothing from the test runner's leaks in except PATH. */
function childEnv(project: Project | null, env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', NODE_ENV: 'development', ...(project?.env ?? {}), ...env };
}

export function folio(project: Project | null, args: readonly string[], env: Record<string, string> = {}): Run {
  const dirArgs = project ? ['--dir', project.dir] : [];
  const r = spawnSync(process.execPath, [CLI, ...args, ...dirArgs], { encoding: 'utf8', timeout: 30_000, env: childEnv(project, env) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Server {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** resolves with the first match of `re` in stdout (or stderr), rejects after the timeout */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM and the exit code */
  stop(): Promise<number | null>;
}

export function spawnFolio(project: Project, args: readonly string[], env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Server {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args, '--dir', project.dir], { env: childEnv(project, env) });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async waitFor(re, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(out) ?? re.exec(err);
        if (m) return m;
        if (Date.now() > until || child.exitCode !== null) throw new Error(`no ${re} in output:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
