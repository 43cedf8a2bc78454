// temporary: median latency of publishing drafts with tags, cover, gallery and seo, one at a time
const [base, token, nArg] = process.argv.slice(2);
const n = Number(nArg ?? 100);
const h = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const call = async (m, p, data) => { const r = await fetch(base + p, { method: m, headers: h, body: data ? JSON.stringify({ data }) : undefined }); if (r.status >= 300) throw new Error(`${r.status} ${await r.text()}`); return r.json(); };
const form = new FormData(); form.append('files', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
const file = (await (await fetch(base + '/api/upload', { method: 'POST', headers: { authorization: h.authorization }, body: form })).json())[0].id;
const tags = [];
for (let i = 0; i < 3; i++) tags.push((await call('POST', '/api/tags', { label: `t${Date.now()}${i}` })).data.documentId);
const docs = [];
for (let i = 0; i < n; i++) docs.push((await call('POST', '/api/articles?status=draft', { title: `p${i}`, tags, cover: file, gallery: [file], seo: { metaTitle: 'm' } })).data.documentId);
const times = [];
for (const d of docs) { const t0 = performance.now(); await call('PUT', `/api/articles/${d}?status=published`, {}); times.push(performance.now() - t0); }
times.sort((a, b) => a - b);
console.log(`publish median ${times[Math.floor(n / 2)].toFixed(2)} ms, p90 ${times[Math.floor(n * 0.9)].toFixed(2)} ms`);
