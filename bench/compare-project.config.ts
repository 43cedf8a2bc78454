// Runs bench/compare-project.ts alone (it is a tool against two running servers, not part of the test suite).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['bench/compare-project.ts'], testTimeout: 300_000 },
});
