// The Node flags Folio is started with as it ships: those its CLI's first line (`#!/usr/bin/env -S
// node …`) gives when it is run as `folio` or `npm start`. The benchmarks start a build with the
// flags of that build, so that a server is measured the way users run it.
import { readFileSync } from 'node:fs';

/** the flags after `node` on the script's first line (none for a plain `#!/usr/bin/env node`) */
export function shippedNodeFlags(script) {
  const first = readFileSync(script, 'utf8').split('\n', 1)[0];
  const m = /^#!\s*\/usr\/bin\/env\s+(?:-S\s+)?node((?:\s+--?\S+)*)\s*$/.exec(first);
  if (!m) throw new Error(`${script}: its first line does not start node (${first})`);
  return m[1].split(/\s+/).filter(Boolean);
}
