// Times writes of an article whose dynamic zone holds N quotes, each naming an author, against a running
// server of the example app: the create, an update sending new rows, and an update keeping the rows by id
// (what a client that read the article sends back). Medians of REPS rounds, in ms.
//   BASE_URL=http://127.0.0.1:1337 TOKEN=<full-access token> N=40 REPS=11 node bench/zone-writes.mjs
const base = process.env.BASE_URL;
const token = process.env.TOKEN;
const n = Number(process.env.N ?? 40);
const reps = Number(process.env.REPS ?? 11);
if (!base || !token) throw new Error('BASE_URL and TOKEN are required');
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

async function call(method, path, data) {
  const r = await fetch(base + path, { method, headers, body: data ? JSON.stringify({ data }) : undefined });
  const body = await r.json();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

const stamp = Date.now();
const authors = [];
for (let i = 0; i < n; i++) authors.push((await call('POST', '/api/authors', { name: `zone ${i} ${stamp}`, email: `zone${i}.${stamp}@example.com` })).data.documentId);
const quotes = (shift) => authors.map((_, i) => ({ __component: 'shared.quote', title: `q${i}`, person: authors[(i + shift) % n] }));

const times = { create: [], replace: [], keep: [] };
const timed = async (list, work) => {
  const started = performance.now();
  const out = await work();
  list.push(performance.now() - started);
  return out;
};
for (let r = 0; r < reps; r++) {
  const created = await timed(times.create, () => call('POST', '/api/articles', { title: `zone ${r} ${stamp}`, blocks: quotes(0) }));
  const doc = created.data.documentId;
  await timed(times.replace, () => call('PUT', `/api/articles/${doc}`, { blocks: quotes(1) }));
  const read = await (await fetch(`${base}/api/articles/${doc}?status=draft&populate=blocks`, { headers })).json();
  const ids = read.data.blocks.map((b) => b.id);
  await timed(times.keep, () => call('PUT', `/api/articles/${doc}`, { blocks: quotes(2).map((q, i) => ({ ...q, id: ids[i], title: `kept ${i}` })) }));
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Number(median(v).toFixed(1))]))));
