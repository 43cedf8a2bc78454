// folio start: serve the project, optionally on several processes sharing the port (node:cluster).
import cluster from 'node:cluster';
import { createApp } from '../app.js';
import { closeOnSignals, reportSchema, serve, serveConfig, url } from './serve.js';
import { numberFlag, UsageError, type Flags } from './usage.js';
import { firstSteps } from './first-steps.js';
import { describeMailer } from '../email/mailer.js';
import { releaseMemoryWhenIdle } from './idle-memory.js';
import { boundHeapGrowth } from './heap-growth.js';
import { stopPretenuring } from './pretenuring.js';

/** Resolves only when the process should exit with the returned code. */
const forever = (): Promise<number> => new Promise(() => {});

async function primary(dir: string, values: Flags, workers: number): Promise<number> {
  const config = await serveConfig(dir, values);
  // sync the schema and seed once here, so workers don't race to create tables; what it found is said
  // here once, and the workers stay quiet about it
  const app = await createApp(config);
  let advice: string[];
  try {
    reportSchema(app);
    advice = await firstSteps(app).catch(() => []);
  } finally {
    await app.close();
  }
  let shown = false;
  cluster.on('listening', (_worker, address) => {
    if (!shown) {
      console.log(`Folio listening on http://${config.host}:${address.port} with ${workers} workers`);
      console.log(describeMailer(config.email, config.env));
      for (const line of advice) console.log(line);
    }
    shown = true;
  });
  let stopping = false;
  cluster.on('exit', (w, code) => {
    if (!stopping && code !== 0) console.error(`Worker ${w.process.pid} exited with code ${code}`);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(stopping ? 0 : 1);
  });
  const stop = (signal: NodeJS.Signals): void => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  for (let i = 0; i < workers; i++) cluster.fork();
  return forever();
}

export async function runStart(dir: string, values: Flags): Promise<number> {
  const workers = numberFlag(values, 'workers') ?? 1;
  if (workers < 1) throw new UsageError('--workers takes a number from 1');
  if (workers > 1 && cluster.isPrimary) return primary(dir, values, workers);
  const config = await serveConfig(dir, values, !cluster.isPrimary);
  boundHeapGrowth();
  stopPretenuring();
  const app = await serve(config, !cluster.isPrimary);
  const stopWatching = releaseMemoryWhenIdle();
  closeOnSignals(() => {
    stopWatching();
    return app.close();
  });
  if (cluster.isPrimary) {
    console.log(`Folio listening on ${url(app, config)}`);
    console.log(describeMailer(config.email, config.env));
    // advice only: a stop (SIGTERM) that closes the database while it reads must not turn into exit 1
    for (const line of await firstSteps(app).catch(() => [])) console.log(line);
  }
  return forever();
}
