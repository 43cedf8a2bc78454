// Shared by start and develop: the configuration with command-line overrides, and one listening app.
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../app.js';
import { defaultPublicUrl, loadConfig } from '../config/load-config.js';
import type { FolioConfig } from '../config/types.js';
import { describeNotRun, notRunFiles } from '../schema/not-run.js';
import { checkProjectDir } from './project-dir.js';
import { announce } from './report.js';
import { flag, numberFlag, type Flags } from './usage.js';

/** loadConfig with --port/--host applied; `quiet` skips the notices (a cluster worker's second load). */
export async function serveConfig(dir: string, values: Flags, quiet = false): Promise<FolioConfig> {
  const port = numberFlag(values, 'port', 65535);
  checkProjectDir(dir);
  const loaded = await loadConfig(dir, process.env);
  if (!quiet) {
    announce(loaded, (line) => console.log(line));
    // once per start (develop's restarts don't repeat it): what Strapi would run here and Folio doesn't
    for (const line of describeNotRun(notRunFiles(loaded.config.dir))) console.log(line);
  }
  const config = { ...loaded.config, port: port ?? loaded.config.port, host: flag(values, 'host') ?? loaded.config.host };
  // A public URL derived from the configured port follows --port: otherwise the confirmation and reset
  // mails, and the provider redirect, would name a port nothing listens on. (Port 0 has no address yet.)
  if (port !== undefined && port !== 0 && loaded.config.publicUrl === defaultPublicUrl(loaded.config.port)) return { ...config, publicUrl: defaultPublicUrl(port) };
  return config;
}

/** `quiet`: a cluster worker, whose primary has already said what its schema sync found */
export async function serve(config: FolioConfig, quiet = false): Promise<App> {
  const app = await createApp(config);
  try {
    await app.fastify.listen({ host: config.host, port: config.port });
  } catch (e) {
    await app.close();
    throw e;
  }
  if (!quiet) reportSchema(app);
  return app;
}

/** What loading the schema and syncing the database found: notices, renames, what was kept. */
export function reportSchema(app: App): void {
  for (const n of app.model.notices ?? []) console.warn(n);
  for (const r of app.sync.renamed) console.warn(`Renamed ${r}: the name Strapi 5 gives it`);
  for (const r of app.sync.earlierKept) {
    console.warn(
      `Kept ${r} as it is: both names exist and Folio serves the second. A process of the earlier version still running writes to the first: stop them all before starting this one`,
    );
  }
  for (const c of app.sync.orphanColumns) console.warn(`Kept column ${c}: the schema no longer has it (data is never dropped)`);
  for (const t of app.sync.orphanTables) console.warn(`Kept table ${t}: the schema no longer has its type, relation or components (data is never dropped)`);
}

/** The address to show: the configured host, and the real port when 0 asked for any free one. */
export function url(app: App, config: FolioConfig): string {
  const address = app.fastify.server.address() as AddressInfo | null;
  return `http://${config.host}:${address?.port ?? config.port}`;
}

/** Closes the app on SIGINT/SIGTERM, once, then exits. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`Error while shutting down: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
