// Reading a provider's API with the access token it issued: JSON in, the provider's own error message
// out (what the client then sees in the 400), and a time limit so a hung provider doesn't hold a request.

const TIMEOUT_MS = 10_000;

export type Json = unknown;

function messageOf(body: Json, status: number): string {
  if (typeof body === 'object' && body !== null) {
    const b = body as Record<string, unknown>;
    for (const k of ['error_description', 'error', 'message']) if (typeof b[k] === 'string' && b[k] !== '') return b[k];
  }
  return typeof body === 'string' && body !== '' ? body.slice(0, 200) : `HTTP ${status}`;
}

/** GETs JSON from a provider; a non-2xx answer throws an Error carrying the provider's message. */
export async function getJson(url: string, accessToken: string | null, headers: Readonly<Record<string, string>> = {}): Promise<Json> {
  const res = await fetch(url, {
    headers: { accept: 'application/json', ...(accessToken === null ? {} : { authorization: `Bearer ${accessToken}` }), ...headers },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  let body: Json = text;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    // a text answer keeps its text
  }
  if (!res.ok) throw new Error(messageOf(body, res.status));
  return body;
}

/** `o[k]` of a JSON object, else undefined: provider answers are read without trusting their shape */
export function field(o: Json, k: string): Json {
  return typeof o === 'object' && o !== null && !Array.isArray(o) && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

export const str = (v: Json): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
