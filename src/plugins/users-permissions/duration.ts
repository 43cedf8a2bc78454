// Token lifetimes as Strapi's config writes them (jsonwebtoken's `expiresIn`): a number of seconds,
// or a string such as "30d", "12h", "90m", "2 days".
import { ConfigError } from '../../errors.js';

const UNIT_SECONDS: ReadonlyMap<string, number> = new Map([
  ['ms', 0.001],
  ['msec', 0.001],
  ['msecs', 0.001],
  ['millisecond', 0.001],
  ['milliseconds', 0.001],
  ['s', 1],
  ['sec', 1],
  ['secs', 1],
  ['second', 1],
  ['seconds', 1],
  ['m', 60],
  ['min', 60],
  ['mins', 60],
  ['minute', 60],
  ['minutes', 60],
  ['h', 3600],
  ['hr', 3600],
  ['hrs', 3600],
  ['hour', 3600],
  ['hours', 3600],
  ['d', 86400],
  ['day', 86400],
  ['days', 86400],
  ['w', 604800],
  ['week', 604800],
  ['weeks', 604800],
  ['y', 31557600],
  ['yr', 31557600],
  ['yrs', 31557600],
  ['year', 31557600],
  ['years', 31557600],
]);

export function durationSeconds(v: unknown, key: string): number {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.floor(v);
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(v.trim()) : null;
  // a bare numeric string is milliseconds in jsonwebtoken's reading
  const unit = m ? (m[2] === '' ? 0.001 : UNIT_SECONDS.get(m[2]!.toLowerCase())) : undefined;
  const seconds = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : 0;
  if (seconds < 1) throw new ConfigError(`${key} must be a duration such as "30d", "12h" or a number of seconds, got ${JSON.stringify(v)}`);
  return seconds;
}
