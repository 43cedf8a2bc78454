import { describe, expect, it } from 'vitest';
import { strapiEnv } from '../../src/config/strapi-env.js';

describe('the env helper config files get', () => {
  const env = strapiEnv({ S: 'text', N: '42', F: '1.5', T: 'true', B: 'yes', A: '[a, "b" ,c]', J: '{"x":1}', BAD: '{', D: '2024-01-02T03:04:05Z', E: '' });

  it('reads strings with a default for unset ones', () => {
    expect(env('S')).toBe('text');
    expect(env('NOPE')).toBeUndefined();
    expect(env('NOPE', 'dflt')).toBe('dflt');
    // set but empty is still set, as in Strapi
    expect(env('E', 'dflt')).toBe('');
  });

  it('coerces like Strapi', () => {
    expect(env.int('N')).toBe(42);
    expect(env.int('NOPE', 7)).toBe(7);
    expect(env.float('F')).toBe(1.5);
    expect(env.bool('T')).toBe(true);
    expect(env.bool('B')).toBe(false);
    expect(env.bool('NOPE', true)).toBe(true);
    expect(env.array('A')).toEqual(['a', 'b', 'c']);
    expect(env.json('J')).toEqual({ x: 1 });
    expect(() => env.json('BAD')).toThrow(/^Invalid json environment variable BAD: /);
    expect(env.date('D')).toEqual(new Date('2024-01-02T03:04:05Z'));
    expect(env.oneOf('S', ['text', 'other'], 'other')).toBe('text');
    expect(env.oneOf('N', ['text'], 'text')).toBe('text');
  });
});
