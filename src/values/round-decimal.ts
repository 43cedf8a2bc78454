// A numeric(10,2) column rounds the decimal text it is sent half away from zero (5.555 is 5.56), where
// the binary double 5.555 would round down: a value is rounded here as its text reads, so the value a
// unique check compares, the one stored and the one answered are the same.

/** `v` rounded half away from zero to `places` decimals, as the decimal text `String(v)` reads */
export function roundDecimal(v: number, places: number): number {
  const text = String(Math.abs(v));
  // exponent forms are below 1e-6 or beyond 1e21: no tie at a few places, and beyond any column's range
  if (!Number.isFinite(v) || /e/i.test(text)) return Number(v.toFixed(places));
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length <= places) return v;
  let scaled = BigInt(whole + fraction.slice(0, places));
  if (fraction.charCodeAt(places) >= '5'.charCodeAt(0)) scaled += 1n;
  const digits = scaled.toString().padStart(places + 1, '0');
  const rounded = Number(places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`);
  return v < 0 ? -rounded : rounded;
}
