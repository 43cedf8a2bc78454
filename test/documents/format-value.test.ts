// Datetimes read back as the same ISO instant whichever dialect's text form the driver hands over.
import { describe, expect, it } from 'vitest';
import { formatDatetime } from '../../src/values/format-value.js';

describe('formatDatetime', () => {
  it.each([
    ['SQLite canonical text', '2026-11-23T15:52:06.399Z', '2026-11-23T15:52:06.399Z'],
    ['MySQL DATETIME(3) in UTC', '2026-11-23 15:52:06.399', '2026-11-23T15:52:06.399Z'],
    ['MySQL without a fraction', '2026-11-23 15:52:06', '2026-11-23T15:52:06.000Z'],
    ['PostgreSQL timestamptz, trailing zeros trimmed', '2026-11-23 15:52:06.4+00', '2026-11-23T15:52:06.400Z'],
    ['PostgreSQL timestamptz without a fraction', '2025-11-23 19:05:00+00', '2025-11-23T19:05:00.000Z'],
    ['PostgreSQL session an hour east of UTC', '2026-11-23 16:52:06.399+01', '2026-11-23T15:52:06.399Z'],
    ['PostgreSQL session with a minutes offset', '2026-11-23 21:22:06.399+05:30', '2026-11-23T15:52:06.399Z'],
    ['PostgreSQL session west of UTC, across midnight', '2026-11-22 20:00:00-08', '2026-11-23T04:00:00.000Z'],
    ['first year', '0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
  ])('%s', (_name, text, iso) => {
    expect(formatDatetime(text)).toBe(iso);
  });

  it('a Date, null and undefined', () => {
    expect(formatDatetime(new Date('2026-11-23T15:52:06.399Z'))).toBe('2026-11-23T15:52:06.399Z');
    expect(formatDatetime(null)).toBeNull();
    expect(formatDatetime(undefined)).toBeNull();
  });
});
