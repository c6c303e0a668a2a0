import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared corpus of genuine sessions (`../shared/fixtures/realworld-transcripts`, read in place, never copied). */
export const realworldDir = resolve(__dirname, '../../../..', '../shared/fixtures/realworld-transcripts');

export function haveRealworld(ctx: Mocha.Context, agent: string): boolean {
  if (existsSync(join(realworldDir, agent))) return true;
  console.log(`      (skipped: ${join(realworldDir, agent)} is absent)`);
  ctx.skip();
  return false;
}

export function readRealworld(file: string): string {
  return readFileSync(join(realworldDir, file), 'utf8');
}

export interface ExpectedEntry {
  file: string;
  prompts: { text: string }[];
  edits: { id?: string; tool: string; file: string; linesAdded: number; linesRemoved: number }[];
  appliedEdits?: { line: number; file: string }[];
  models: string[];
}

export function expectedFor(file: string): ExpectedEntry {
  const all = JSON.parse(readFileSync(join(realworldDir, 'expected.json'), 'utf8')) as ExpectedEntry[];
  const e = all.find((x) => x.file === file);
  if (!e) throw new Error(`no expected.json entry for ${file}`);
  return e;
}
