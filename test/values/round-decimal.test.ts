// A numeric(10,2) column rounds the decimal text it receives half away from zero; the value a unique
// check compares must be the one the column will keep.
import { describe, expect, it } from 'vitest';
import { roundDecimal } from '../../src/values/round-decimal.js';

describe('decimals rounded as a numeric column rounds them', () => {
  it('a tie rounds away from zero as the text reads, where the binary double would round down', () => {
    expect([5.555, 1.005, 2.675, 0.125, 0.005].map((v) => roundDecimal(v, 2))).toEqual([5.56, 1.01, 2.68, 0.13, 0.01]);
    expect([-5.555, -0.005].map((v) => roundDecimal(v, 2))).toEqual([-5.56, -0.01]);
  });

  it('values with no more places than the column keeps are unchanged; tiny values in exponent form round to zero', () => {
    expect([12, 12.3, 5.55, -7.1].map((v) => roundDecimal(v, 2))).toEqual([12, 12.3, 5.55, -7.1]);
    expect([5.5549, 0.004, 1e-7].map((v) => roundDecimal(v, 2))).toEqual([5.55, 0, 0]);
  });
});
