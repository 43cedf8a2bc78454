// `server.cron`: Strapi runs the tasks of an enabled cron on their schedules. Folio runs no project
// code, so start-up says those tasks never run rather than let a site wait for them in silence.
import { isObj, type Obj } from './config-files.js';

const SHOWN = 5;

/** one line when config/server enables cron, naming its tasks */
export function cronNotRun(server: Obj): string[] {
  const cron = server['cron'];
  if (!isObj(cron) || !cron['enabled']) return [];
  const tasks = isObj(cron['tasks']) ? Object.keys(cron['tasks']).map((k) => JSON.stringify(k)) : [];
  const named = tasks.length === 0 ? '' : ` (${tasks.slice(0, SHOWN).join(', ')}${tasks.length > SHOWN ? `, and ${tasks.length - SHOWN} more` : ''})`;
  return [
    `server.cron is not run by Folio: its tasks${named} never run; schedule that work outside Folio, e.g. a system cron job calling the REST API (README, "What is not run")`,
  ];
}
