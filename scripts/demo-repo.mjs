// Builds the demo repository: a small TypeScript project with a few commits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn } from './harness.mjs';

export async function createDemoRepository({ base }) {
  const dir = join(base, 'demo-shop');
  mkdirSync(join(dir, 'src'), { recursive: true });
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# demo-shop\n\nA tiny cart library used to demo Agent Note.\n');
  writeFileSync(join(dir, 'src/cart.ts'), 'export interface LineItem {\n  sku: string;\n  qty: number;\n  priceCents: number;\n}\n');
  git('add', '.');
  git('commit', '-q', '-m', 'chore: scaffold demo-shop');
  return dir;
}
