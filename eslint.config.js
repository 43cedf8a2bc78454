// ESLint: the recommended rules of @eslint/js and typescript-eslint, syntax only (no type information, so a run takes seconds).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'folio-typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'examples/', 'test/fixtures/', 'bench/results/', 'bench/tmp/', 'coverage/', '.tmp/']),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter or binding that is there for its position only
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
);
