/**
 * The hostile corpus (test/unit/hostile/corpus.ts) through the dashboard: a note with a hostile
 * string in every field goes through the collector's row builder, the data schema and the page's
 * renderer. The page's markup may use only the tags it uses for a harmless word (a path with
 * slashes adds folder rows, so the counts of table rows can differ), never a tag it does not write
 * itself, its attribute values stay closed, and one
 * hostile note must never make the page refuse the whole data file.
 */
import * as assert from 'node:assert/strict';
import { dashboardCommit } from '../../../src/core/dashboard/aggregate';
import { parseDashboardData, type DashboardData } from '../../../src/core/dashboard/dashboardData';
import { createRedactor } from '../../../src/core/redaction/redactor';
import { allInOne, benignNote, hostileNote, hostileStrings } from '../hostile/corpus';
import { loadApp } from '../webviews/loadApp';
import { sampleShas } from './sample';

type RenderModule = typeof import('../../../src/webviews/apps/dashboard/render');
type StateModule = typeof import('../../../src/webviews/apps/dashboard/state');
const R = loadApp<RenderModule>('dashboard/render');
const S = loadApp<StateModule>('dashboard/state');

const redactor = createRedactor();

function dataWith(s: string, note = hostileNote(s)): DashboardData {
  const row = dashboardCommit(
    { sha: sampleShas.c1, subject: s, author: s, date: '2026-03-02T08:00:00Z' },
    [0],
    note,
    (t) => redactor.redact(t).text,
  );
  const unreadable = dashboardCommit(
    { sha: sampleShas.c2, subject: s, author: s, date: '2026-03-01T08:00:00Z' },
    [0],
    undefined,
    (t) => t,
    s,
  );
  const raw: DashboardData = {
    schema: 1,
    generatedAt: '2026-03-10T00:00:00.000Z',
    repository: 'r',
    branches: ['main'],
    commits: [row, unreadable],
    ranges: [{ sha: sampleShas.merge, title: row.subject, date: '2026-03-03T00:00:00Z', commits: [sampleShas.c1] }],
    notesOutsideBranches: 0,
    strings: {},
  };
  // through JSON, as the page gets it
  const r = parseDashboardData(JSON.parse(JSON.stringify(raw)));
  assert.ok(r.ok, r.ok ? '' : `the page refused the data: ${r.reason}`);
  return r.data;
}

function page(data: DashboardData): string {
  const ctx = { data, ui: S.initialUi, locale: 'en-US' };
  return R.renderHeader(ctx) + R.renderFilters(ctx) + R.renderContent(ctx);
}

const structure = (html: string) => [...html.matchAll(/<\/?[a-zA-Z][a-zA-Z0-9-]*/g)].map((m) => m[0]);

describe('dashboard with the hostile corpus', () => {
  const benign = structure(page(dataWith('word', benignNote())));
  const benignTags = new Set(benign);
  for (const [name, s] of Object.entries({ ...hostileStrings(), allInOne: allInOne() })) {
    it(`${name}: accepted by the schema, shown as text`, () => {
      const html = page(dataWith(s));
      const tags = structure(html);
      assert.deepEqual(
        [...new Set(tags)].filter((t) => !benignTags.has(t)),
        [],
        'only the tags the page writes itself',
      );
      assert.doesNotMatch(html, /<(?:script|img|iframe|a|style|link|meta|object|embed|base)\b/i);
      assert.equal(tags.filter((t) => t === '<pre').length, benign.filter((t) => t === '<pre').length, 'one <pre> per prompt');
      for (const tag of html.match(/<[a-zA-Z][^>]*>/g) ?? []) {
        const rest = tag.replace(/\s[a-zA-Z][a-zA-Z0-9-]*(?:="[^"<>]*")?(?=[\s/>])/g, '').replace(/^<[a-zA-Z][a-zA-Z0-9-]*/, '');
        assert.match(rest, /^\s*\/?>$/, `unexpected attribute text in ${tag.slice(0, 200)}`);
      }
    });
  }
});
