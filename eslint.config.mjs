// Lint rules, including the layer rule: core ← node ← host, webviews/apps only see protocols.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'os', 'worker_threads'];
const nodeIo = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      '**/node_modules/**',
      // global ignore patterns match directories too, and nothing inside an ignored directory can be
      // un-ignored: ignore the fixtures folder's entries, except the redaction folder's one script
      'test/fixtures/*',
      '!test/fixtures/redaction/',
      'test/fixtures/redaction/*',
      '!test/fixtures/redaction/generate.mjs',
      'test/harness/**',
      'bench-results/**',
      '.vscode-test/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-aware rules everywhere (src, test, scripts): every file belongs to one of the projects.
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.webview.json', './tsconfig.scripts.json', './tsconfig.scripts-legacy.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it/hooks return promises that fulfil even when a test fails: the
          // runner reports failures and sets the exit code itself (scripts/bench/selfTest.mjs)
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/core is pure: no vscode.' },
            { name: 'simple-git', message: 'src/core is pure: git goes through src/node.' },
            ...nodeIo.map((name) => ({ name, message: 'src/core is pure: no I/O (fs, child_process, network).' })),
          ],
          patterns: [
            { group: ['**/node/*', '**/node/**', '../node', '../../node'], message: 'src/core must not import src/node.' },
            { group: ['**/host/*', '**/host/**'], message: 'src/core must not import src/host.' },
            { group: ['**/webviews/**'], message: 'src/core must not import webviews.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/node must not import vscode: only src/host talks to the editor.' }],
          patterns: [
            { group: ['**/host/*', '**/host/**'], message: 'src/node must not import src/host.' },
            { group: ['**/webviews/**'], message: 'src/node must not import webviews.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webviews/apps/**/*.ts', 'src/webviews/**/protocol.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: "Can't use vscode in webviews." },
            ...nodeBuiltins.map((name) => ({ name, message: 'No Node in webviews.' })),
          ],
          patterns: [
            { group: ['**/host/**', '**/node/**'], message: 'Webviews only see protocols and core types.' },
            { group: ['node:*'], message: 'No Node in webviews.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Scripts and browser-driven e2e files are Node programs that report on the console.
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off' },
  },
  // The browser e2e specs run under mocha; their page.evaluate callbacks run in the page.
  {
    files: ['test/e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.mocha, ...globals.browser } },
  },
);
