// A burst of concurrent creates against a running Folio: when is each one answered, measured from
// the moment the burst starts? Shows whether answers keep up with commits or queue behind them
// (issue 19: a read-back after each write waited for a pooled connection behind the other writes).
//   node bench/write-burst.mjs <base url> <full-access token> [count=500] [rounds=3]
const [base, token, countArg, roundsArg] = process.argv.slice(2);
if (!base || !token) {
  console.error('usage: node bench/write-burst.mjs <base url> <full-access token> [count=500] [rounds=3]');
  process.exit(2);
}
const count = Number(countArg ?? 500);
const rounds = Number(roundsArg ?? 3);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

for (let round = 1; round <= rounds; round++) {
  const start = performance.now();
  const times = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const r = await fetch(`${base}/api/articles`, { method: 'POST', headers, body: JSON.stringify({ data: { title: `burst ${round}.${i}`, summary: 'burst' } }) });
      await r.arrayBuffer();
      if (r.status !== 201) throw new Error(`create answered ${r.status}`);
      return performance.now() - start;
    }),
  );
  const burst = performance.now() - start;
  times.sort((a, b) => a - b);
  const ms = (v) => `${Math.round(v)} ms`;
  console.log(
    `round ${round}: ${count} creates in ${ms(burst)}; answered after p10 ${ms(pct(times, 10))}, p50 ${ms(pct(times, 50))}, p90 ${ms(pct(times, 90))}, p99 ${ms(pct(times, 99))}, first ${ms(times[0])}`,
  );
}
