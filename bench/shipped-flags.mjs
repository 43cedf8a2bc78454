// The Node flags Folio is started with as it ships: those `npm start` gives (package.json's start
// script, `node <flags> dist/cli/main.js start …`). The benchmarks start a build with the flags of that
// build, so that a server is measured the way the README tells users to run it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** the flags between `node` and the script in the start script of the build `script` (…/dist/cli/main.js) belongs to */
export function shippedNodeFlags(script) {
  const pkg = join(dirname(script), '..', '..', 'package.json');
  const start = JSON.parse(readFileSync(pkg, 'utf8')).scripts?.start ?? '';
  const m = /(?:^|&&\s*)node((?:\s+--?\S+)*)\s+dist\/cli\/main\.js\s+start\b/.exec(start);
  if (!m) throw new Error(`${pkg}: its start script does not run node dist/cli/main.js start (${start})`);
  return m[1].split(/\s+/).filter(Boolean);
}
