/**
 * Builds the demo repository for `npm run demo`: a small TypeScript project whose AI commits are
 * recorded by the real pipeline (transcripts tailed from the demo HOME → session journal → edit
 * capture → 3-diff attribution → note), exactly as the extension does — no note is written by hand.
 * Run from scripts/demo.mjs after `node esbuild.mjs` (out/ is needed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitRunner } from '../../src/node/git/gitRunner';
import { RepositoryRecorder } from '../../src/node/recorder/repositoryRecorder';
import { TranscriptWatcher } from '../../src/node/transcripts/transcriptWatcher';
import { createRedactor } from '../../src/core/redaction/redactor';
import { nullLogger } from '../../src/core/ports';
import type { ContentTransition } from '../../src/core/capture/editCapture';
import { ClaudeSession, CodexSession, CursorSession, GeminiSession, git } from '../suite/helpers/agents';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function createDemoRepository(opts: { base: string; home: string; log?: (m: string) => void }): Promise<string> {
  const say = opts.log ?? (() => {});
  const root = path.join(opts.base, 'demo-shop');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('README.md', '# demo-shop\n\nA tiny cart library used to demo Agent Note.\n');
  write('package.json', '{\n  "name": "demo-shop",\n  "version": "0.1.0",\n  "type": "module"\n}\n');
  write(
    'src/money.ts',
    'export type Cents = number;\n\nexport function formatCents(c: Cents): string {\n  return `$${(c / 100).toFixed(2)}`;\n}\n',
  );
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'chore: scaffold demo-shop');

  const runner = new GitRunner(root);
  const redactor = createRedactor();
  const recorder = await RepositoryRecorder.open({ root, git: runner, log: nullLogger, redact: (t) => redactor.redact(t) });
  const watcher = new TranscriptWatcher({
    repo: { root },
    discovery: { homeDir: opts.home, env: {} },
    rescanIntervalMs: 0,
    useFsWatch: false,
    pollIntervalMs: 100,
  });
  watcher.onEvents(
    (batch) =>
      void recorder.onAgentEvents(
        batch.map((e) => ({ event: e.event, key: e.key, transcriptPath: e.source.filePath, fileTimeMs: e.source.fileTimeMs })),
      ),
  );
  await watcher.start();

  const known = new Map<string, string>();
  const snapshot = (rel: string) =>
    known.set(rel, fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : '');
  for (const rel of ['README.md', 'package.json', 'src/money.ts']) snapshot(rel);
  let seq = 0;
  /** What the editor's file watcher reports after a file changed on disk. */
  const observe = (rel: string, source: ContentTransition['source'] = 'disk') => {
    const before = known.get(rel) ?? '';
    const after = fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : '';
    known.set(rel, after);
    recorder.onTransition({ id: `demo-${++seq}`, file: rel, before, after, time: Date.now(), source });
  };
  const sync = async () => {
    await watcher.rescan();
    await sleep(400);
    await recorder.tick(Date.now() + 10_000);
    await recorder.settle();
  };
  const commit = async (message: string) => {
    await sync();
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', message);
    const sha = git(root, 'rev-parse', 'HEAD').trim();
    const outcome = await recorder.recordCommit(sha);
    say(`${sha.slice(0, 7)} ${message}: ${outcome.kind}`);
    await sleep(1100); // distinct commit times
  };

  // 1. Claude Code writes the cart, the human adds a line afterwards (partial ratio)
  const claude = new ClaudeSession(root, 'claude-sonnet-4-5', opts.home);
  claude.prompt('Add a Cart class in src/cart.ts with line items (sku, qty, priceCents), add(), remove() and a subtotal() in cents.');
  await sync();
  claude.write(
    'src/cart.ts',
    "import type { Cents } from './money';\n\nexport interface LineItem {\n  sku: string;\n  qty: number;\n  priceCents: Cents;\n}\n\nexport class Cart {\n  private readonly items = new Map<string, LineItem>();\n\n  add(item: LineItem): void {\n    const prev = this.items.get(item.sku);\n    this.items.set(item.sku, prev ? { ...prev, qty: prev.qty + item.qty } : item);\n  }\n\n  remove(sku: string): void {\n    this.items.delete(sku);\n  }\n\n  subtotal(): Cents {\n    let sum = 0;\n    for (const i of this.items.values()) sum += i.qty * i.priceCents;\n    return sum;\n  }\n}\n",
  );
  observe('src/cart.ts');
  claude.respond(
    'Added `Cart` in src/cart.ts: `add()` merges quantities per SKU, `remove()` drops a SKU and `subtotal()` sums qty × price in cents.',
  );
  await sync();
  fs.appendFileSync(path.join(root, 'src/cart.ts'), '\nexport const emptyCart = (): Cart => new Cart();\n');
  observe('src/cart.ts', 'typing');
  await commit('feat: add Cart with line items');

  // 2. a human-only commit: no note
  write('README.md', '# demo-shop\n\nA tiny cart library used to demo Agent Note.\n\n```ts\nconst cart = new Cart();\n```\n');
  observe('README.md', 'typing');
  await commit('docs: usage example');

  // 3. Cursor writes discounts
  const cursor = new CursorSession(root, opts.home);
  cursor.prompt('Add percentage discount codes in src/discount.ts (WELCOME10 = 10%, SPRING20 = 20%) with applyDiscount(subtotal, code).');
  const discount =
    "import type { Cents } from './money';\n\nexport const DISCOUNTS: Record<string, number> = {\n  WELCOME10: 10,\n  SPRING20: 20,\n};\n\nexport function applyDiscount(subtotal: Cents, code?: string): Cents {\n  const pct = code ? DISCOUNTS[code.toUpperCase()] ?? 0 : 0;\n  return Math.round(subtotal * (1 - pct / 100));\n}\n";
  write('src/discount.ts', discount);
  observe('src/discount.ts', 'bulk');
  cursor.write('src/discount.ts', discount);
  cursor.respond('Created src/discount.ts with a DISCOUNTS table and applyDiscount().');
  await commit('feat: percentage discount codes');

  // 4. Codex adds tests
  const codex = new CodexSession(root, 'gpt-5.1-codex', opts.home);
  codex.prompt('Write node:test tests for Cart.subtotal and applyDiscount in test/cart.test.ts');
  codex.addFile(
    'test/cart.test.ts',
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { Cart } from '../src/cart';\nimport { applyDiscount } from '../src/discount';\n\ntest('subtotal sums qty × price', () => {\n  const c = new Cart();\n  c.add({ sku: 'a', qty: 2, priceCents: 150 });\n  assert.equal(c.subtotal(), 300);\n});\n\ntest('WELCOME10 takes 10% off', () => {\n  assert.equal(applyDiscount(1000, 'welcome10'), 900);\n});\n",
  );
  observe('test/cart.test.ts');
  codex.respond('Added test/cart.test.ts covering subtotal() and applyDiscount().');
  await commit('test: cover subtotal and discounts');

  // 5. Gemini refactors money formatting (Traditional Chinese prompt)
  const gemini = new GeminiSession(root, 'gemini-2.5-pro', opts.home);
  gemini.prompt('請把 src/money.ts 的 formatCents 改成使用 Intl.NumberFormat，貨幣為 USD。');
  gemini.replace(
    'src/money.ts',
    '  return `$${(c / 100).toFixed(2)}`;\n',
    "  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(c / 100);\n",
    '已改用 Intl.NumberFormat 格式化金額。',
  );
  observe('src/money.ts');
  await commit('refactor: format money with Intl.NumberFormat');

  // 6. an active Claude session with an uncommitted AI edit (status bar, uncommitted hover)
  const live = new ClaudeSession(root, 'claude-sonnet-4-5', opts.home);
  live.prompt('Add a total() to Cart that applies an optional discount code');
  live.edit(
    'src/cart.ts',
    '  subtotal(): Cents {',
    '  total(code?: string): Cents {\n    return Math.round(this.subtotal() * (code ? 0.9 : 1));\n  }\n\n  subtotal(): Cents {',
  );
  observe('src/cart.ts');
  live.respond('Added Cart.total(code?) (work in progress — not committed yet).');
  await sync();

  watcher.dispose();
  await recorder.dispose();
  return root;
}
