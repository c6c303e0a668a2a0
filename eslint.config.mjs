// Lint rules, including the layer rule: core ← node ← host, webviews/apps only see protocols.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'os', 'worker_threads'];
const nodeIo = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '**/*.mjs', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
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
);
