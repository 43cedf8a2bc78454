// folio start / develop: serve the project; develop restarts when schema files change.
import cluster from 'node:cluster';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { createApp, type App } from '../app.js';
import { loadConfig } from '../config/load-config.js';
import type { FolioConfig } from '../config/types.js';
import { flag, UsageError, type Flags } from './usage.js';

async function serve(config: FolioConfig): Promise<App> {
  const app = await createApp(config);
  await app.fastify.listen({ host: config.host, port: config.port });
  for (const c of app.sync.orphanColumns) console.warn(`Kept column ${c}: the schema no longer has it (data is never dropped)`);
  return app;
}

function number(values: Flags, name: string): number | undefined {
  const v = flag(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} takes a whole number`);
  return Number(v);
}

export async function runStart(dir: string, values: Flags, develop: boolean): Promise<number> {
  const port = number(values, 'port');
  const workers = number(values, 'workers') ?? 1;
  if (cluster.isPrimary) {
    const { config, generated } = await loadConfig(dir, process.env);
    if (generated.length) console.log(`Generated ${generated.join(', ')} and kept ${generated.length > 1 ? 'them' : 'it'} in ${join(config.dir, '.env')}`);
    if (workers > 1 && !develop) {
      // schema sync runs once here, so workers don't race to create tables
      const app = await createApp({ ...config, port: port ?? config.port });
      await app.close();
      for (let i = 0; i < workers; i++) cluster.fork();
      console.log(`Folio listening on http://${values['host'] ?? config.host}:${port ?? config.port} with ${workers} workers`);
      cluster.on('exit', (w, code) => {
        if (code !== 0) console.error(`worker ${w.process.pid} exited with ${code}`);
      });
      return new Promise(() => {});
    }
  }
  const { config: loaded } = await loadConfig(dir, process.env);
  const config: FolioConfig = { ...loaded, port: port ?? loaded.port, host: flag(values, 'host') ?? loaded.host };
  let app = await serve(config);
  if (cluster.isPrimary) console.log(`Folio listening on http://${config.host}:${config.port}`);
  const stop = async (): Promise<void> => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (develop) {
    let timer: NodeJS.Timeout | undefined;
    watch(join(config.dir, 'src'), { recursive: true }, (_event, file) => {
      if (!file || !String(file).endsWith('.json')) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        void (async () => {
          await app.close();
          try {
            app = await serve(config);
            console.log('Schema changed: restarted');
          } catch (e) {
            console.error(`Error: ${(e as Error).message}`);
            console.error('Waiting for the next change…');
          }
        })();
      }, 200);
    });
  }
  return new Promise(() => {});
}
