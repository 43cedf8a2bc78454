// What a column holds on every dialect: the narrowest of SQLite, PostgreSQL and MySQL/MariaDB for
// each attribute type, so a value one of them would refuse is refused on all three.

/** integer columns (and row ids: PostgreSQL's serial) are 32-bit */
export const INTEGER_RANGE = [-2147483648, 2147483647] as const;
export const BIGINTEGER_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;
/** decimal is numeric(10,2) */
export const DECIMAL_RANGE = [-99999999.99, 99999999.99] as const;

/** Dates and datetimes: MySQL's DATETIME ends at 9999, PostgreSQL has no year 0. */
export function storableYear(year: number): boolean {
  return year >= 1 && year <= 9999;
}
