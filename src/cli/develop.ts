// folio develop: serve, and restart whenever a schema file under src/ changes. A bad schema is
// reported and nothing is served until a later change fixes it.
import { watch } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.js';
import { loadSchemaModules } from '../schema/schema-modules.js';
import { userMessage } from './report.js';
import { closeOnSignals, serve, serveConfig, url } from './serve.js';
import type { Flags } from './usage.js';

const DEBOUNCE_MS = 200;
/** what a change restarts for: JSON schema files, and content-type schemas written as modules */
// a schema.json, a schema.ts/.js, or a component written as a module (components/<category>/<name>.ts)
const SCHEMA_FILE = /(?:\.json|(?:^|[\\/])schema\.[jt]s|(?:^|[\\/])components[\\/][^\\/]+[\\/][^\\/]+(?<!\.d)\.[jt]s)$/;

export async function runDevelop(dir: string, values: Flags): Promise<number> {
  let config = await serveConfig(dir, values);
  const src = join(config.dir, 'src');
  let app: App | null = null;
  // restarts run one after another, never overlapping
  let queue: Promise<void> = Promise.resolve();
  const restart = (changed: string | null): Promise<void> =>
    (queue = queue.then(async () => {
      try {
        if (app) {
          const old = app;
          app = null;
          await old.close();
        }
        // schemas written as modules are run again: one of them may be what changed
        if (changed !== null) config = { ...config, schemaModules: await loadSchemaModules(config.dir) };
        app = await serve(config);
        // with --port 0, keep the port the first start got so clients needn't follow it
        if (config.port === 0) config = { ...config, port: (app.fastify.server.address() as AddressInfo).port };
        console.log(
          changed === null
            ? `Folio listening on ${url(app, config)} (restarts when src/**/*.json, a schema.ts/.js or a component's .ts/.js changes)`
            : `${changed} changed: restarted on ${url(app, config)}`,
        );
      } catch (e) {
        console.error(userMessage(e) ?? e);
        console.error('Waiting for a change under src/ to try again…');
      }
    }));

  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(src, { recursive: true }, (_event, file) => {
    // editors' swap and backup files don't count; an unnamed event might be a schema file
    if (file && !SCHEMA_FILE.test(String(file))) return;
    clearTimeout(timer);
    timer = setTimeout(() => void restart(file ? join('src', String(file)) : 'src'), DEBOUNCE_MS);
  });
  closeOnSignals(async () => {
    watcher.close();
    clearTimeout(timer);
    await queue;
    await app?.close();
  });
  await restart(null);
  return new Promise(() => {});
}
