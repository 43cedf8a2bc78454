// Checks one configuration value and names its key when it is wrong, so a bad setting is a one-line
// ConfigError instead of a surprise at run time.
import { ConfigError } from '../errors.js';
import type { Env } from './strapi-env.js';

const show = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)));

/** An integer environment variable in [min, max]; the default when unset or empty. */
export function envInt<D extends number | undefined>(env: Env, key: string, dflt: D, min: number, max = Number.MAX_SAFE_INTEGER): number | D {
  const v = env[key]?.trim();
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) throw new ConfigError(`${key} must be a whole number from ${min} to ${max}, got ${show(env[key])}`);
  return n;
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

export function envBool(env: Env, key: string, dflt: boolean): boolean {
  const v = env[key]?.trim().toLowerCase();
  if (v === undefined || v === '') return dflt;
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  throw new ConfigError(`${key} must be true or false, got ${show(env[key])}`);
}

/** A number or numeric string from a config file, integer in [min, max]. */
export function fileInt(v: unknown, key: string, dflt: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined) return dflt;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${key} must be ${min === 1 && max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `a whole number from ${min} to ${max}`}, got ${show(v)}`);
  }
  return n;
}

export function fileBool(v: unknown, key: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new ConfigError(`${key} must be true or false, got ${show(v)}`);
  return v;
}

export function fileString(v: unknown, key: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string, got ${show(v)}`);
  return v;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** A byte count as koa-body (Strapi's body parser) takes it: a number, or "1mb", "512kb"… */
export function fileBytes(v: unknown, key: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(v.trim()) : null;
  if (!m) throw new ConfigError(`${key} must be a size such as 1mb or 524288, got ${show(v)}`);
  const n = Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
  if (n < 1) throw new ConfigError(`${key} must be a size such as 1mb or 524288, got ${show(v)}`);
  return n;
}
