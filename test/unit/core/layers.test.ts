import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../../../..');

async function lint(file: string, code: string): Promise<string[]> {
  // the snippets are not files of a TypeScript project: lint them without type information (the
  // layer rule needs none), and with the type-aware rules off
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { project: null, projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/await-thenable': 'off',
        '@typescript-eslint/switch-exhaustiveness-check': 'off',
      },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rule (eslint no-restricted-imports)', function () {
  this.timeout(60_000);

  it('rejects vscode, fs, child_process and simple-git in src/core', async () => {
    const msgs = await lint(
      'src/core/x.ts',
      "import * as vscode from 'vscode';\nimport { readFileSync } from 'node:fs';\nimport { spawn } from 'child_process';\nimport { simpleGit } from 'simple-git';\nexport const a = [vscode, readFileSync, spawn, simpleGit];\n",
    );
    assert.equal(msgs.length, 4, msgs.join('\n'));
  });

  it('rejects src/core importing src/node or src/host', async () => {
    const msgs = await lint(
      'src/core/x.ts',
      "import { GitRunner } from '../node/git/gitRunner';\nimport { Services } from '../host/services';\nexport const a = [GitRunner, Services];\n",
    );
    assert.equal(msgs.length, 2, msgs.join('\n'));
  });

  it('rejects vscode and src/host in src/node', async () => {
    const msgs = await lint(
      'src/node/x.ts',
      "import * as vscode from 'vscode';\nimport { Services } from '../host/services';\nexport const a = [vscode, Services];\n",
    );
    assert.equal(msgs.length, 2, msgs.join('\n'));
  });

  it('rejects vscode and Node modules in webview apps', async () => {
    const msgs = await lint(
      'src/webviews/apps/x/main.ts',
      "import * as vscode from 'vscode';\nimport { readFileSync } from 'node:fs';\nexport const a = [vscode, readFileSync];\n",
    );
    assert.equal(msgs.length, 2, msgs.join('\n'));
  });

  it('allows host → node → core', async () => {
    assert.deepEqual(
      await lint(
        'src/host/x.ts',
        "import * as vscode from 'vscode';\nimport { GitRunner } from '../node/git/gitRunner';\nexport const a = [vscode, GitRunner];\n",
      ),
      [],
    );
    assert.deepEqual(
      await lint(
        'src/node/x.ts',
        "import { readFileSync } from 'node:fs';\nimport { Counters } from '../core/ports';\nexport const a = [readFileSync, Counters];\n",
      ),
      [],
    );
  });
});
