/** Test helpers: repository paths and the peer fixture commits (test/fixtures/peer-repos/README.md). */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import type { PrReportCommit } from '../../../src/core/report/prReport';

/** The repository root (tests run from out/test/…, fixtures live in the source tree). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'test', 'fixtures'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
}

export function readText(...parts: string[]): string {
  return readFileSync(path.join(repoRoot(), ...parts), 'utf8');
}

/** A peer note exactly as stored (the CLI reads notes with JSON.parse, no normalization). */
export function peerNote(repo: string, slug: string): AgentNoteV1 {
  return JSON.parse(readText('test', 'fixtures', 'peer-repos', repo, 'notes', `${slug}.json`)) as AgentNoteV1;
}

/** An oracle output of test/unit/report/fixtures. */
export function reportFixture(name: string): string {
  return readText('test', 'unit', 'report', 'fixtures', name);
}

type Row = [sha: string, subject: string, slug?: string];

const peerCommits: Record<string, Row[]> = {
  'todo-api': [
    ['041bc4358a90b58b1dabfeb424c0213683238cab', 'chore: scaffold todo-api project'],
    ['07e49a78a568f2f913b469fb894f90c368a6ba64', 'feat: add Todo model and in-memory store', 'feat-add-todo-model-and-in-memory-store'],
    ['e13b790ac9ff86cb19096bf3fe0090c4ac73bf02', 'feat: validate todo titles', 'feat-validate-todo-titles'],
    ['34c9fa18cbe421408317223581b9678c67a57945', 'docs: describe the REST endpoints'],
    ['a76d22f2360e1089ab0cf0c0d4070c0a9276cafc', 'feat: paginate GET /todos with a cursor', 'feat-paginate-get-todos-with-a-cursor'],
    [
      '76183517940875c2d738fdb1251b7f6ad637b3a5',
      'refactor: drop the unused completeAll helper',
      'refactor-drop-the-unused-completeall-helper',
    ],
    [
      '8d3efc61b3c32ebdd5fe128df08369737e84413d',
      'build: add OpenAPI spec, generated types and dist build',
      'build-add-openapi-spec-generated-types-and-dist-build',
    ],
  ],
  'weather-cli': [
    ['f0e0a607fcedde72551f5c4dfc8c59883e2fb4a6', 'chore: initial weather-cli skeleton'],
    ['93e088ddaad562826b74252b03f6c24f04d0e6e1', 'feat: fetch forecasts from Open-Meteo', 'feat-fetch-forecasts-from-open-meteo'],
    ['4b963bf1feff88023129a0bf372b430689590406', 'feat: add unit conversion helpers', 'feat-add-unit-conversion-helpers'],
    ['273e73251a0aff5c8b6dccf684dd43b578640e91', 'feat: parse --city and --units flags', 'feat-parse-city-and-units-flags'],
    ['4c0ee16a901c198df328bf69b9690d3e2233894e', 'feat: format temperatures with one decimal', 'feat-format-temperatures-with-one-decimal'],
    ['d64c1e0bf1bcc58bb8128cd18c77f97583ccc244', 'feat: show the Beaufort wind force', 'feat-show-the-beaufort-wind-force'],
    ['5952e93ec0163e0ecee07f866f6a14652340fd96', 'fix: time out slow Open-Meteo requests after 10 s'],
  ],
  'shop-cart': [
    ['ee8aeb8806644c705d803adfd665d62b1e35535e', 'chore: bootstrap shop-cart library'],
    ['1314a562599a38ca1e6676b8b00c9b4ed07fbbd5', 'feat: add Cart class with line items', 'feat-add-cart-class-with-line-items'],
    ['529d71f5cb661b99877c549af07ca4921ba5c1b9', 'feat: support percentage discount codes', 'feat-support-percentage-discount-codes'],
    ['ccdee8be043dc51d13ddc72981d244f16e97c5e9', 'test: cover cart totals and discounts', 'test-cover-cart-totals-and-discounts'],
    ['ed9d739570ecb4c54440171190c8ca31ecde3dde', 'refactor: move tax rules into src/tax.ts', 'refactor-move-tax-rules-into-src-tax-ts'],
    ['025e98899519cdfb09c929b24a8d796be5adc13c', 'chore: release 0.2.0'],
  ],
};

/** Every commit of a peer bundle, oldest first, with its note when it has one. */
export function peerCommitsOf(repo: 'todo-api' | 'weather-cli' | 'shop-cart'): PrReportCommit[] {
  return peerCommits[repo].map(([sha, subject, slug]) => ({
    sha,
    short: sha.slice(0, 7),
    subject,
    ...(slug ? { note: peerNote(repo, slug) } : {}),
  }));
}

/** The synthetic edge-case range of fixtures/edge (oldest first). */
export function edgeCommits(): PrReportCommit[] {
  const rows = JSON.parse(reportFixture('edge/commits.json')) as { sha: string; short: string; subject: string; note?: string }[];
  return rows.map((r) => ({
    sha: r.sha,
    short: r.short,
    subject: r.subject,
    ...(r.note ? { note: JSON.parse(reportFixture(`edge/${r.note}`)) as AgentNoteV1 } : {}),
  }));
}
