import * as assert from 'node:assert/strict';
import { decodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { buildPrReport, progressBar, prReportRepoUrl, rollUp, type PrReportCommitJson } from '../../../src/core/report/prReport';
import { edgeCommits, peerCommitsOf, readText, reportFixture } from './peerFixtures';

/** The CLI prints the Markdown with console.log: one extra newline. */
const md = (name: string) => reportFixture(name).replace(/\n$/, '');
const json = (name: string) => JSON.parse(reportFixture(name)) as { base: string };

describe('buildPrReport', () => {
  describe('todo-api (7 commits, 5 noted)', () => {
    const commits = peerCommitsOf('todo-api');

    it('rolls up to 96% mixed, computed by hand from the notes', () => {
      const { json: r } = buildPrReport(commits);
      // Tracked: #2 line 88/88, #3 line 14/19 (74%), #5 line 47/47, #6 file (deletion-only, 0 added),
      // #7 line 46/47 (98%). Line and file commits together ⇒ mixed, weighted by eligible files:
      // #7 has 5 files, minus dist/index.js (ai_ratio_excluded) and src/generated/api-types.ts
      // (generated) ⇒ 3 (2 by AI). (100·4 + 74·2 + 100·3 + 100·1 + 98·3) / (4+2+3+1+3) = 1242/13 = 95.54 ⇒ 96.
      assert.equal(r.overall_method, 'mixed');
      assert.equal(r.overall_ai_ratio, 96);
      assert.equal(r.total_commits, 7);
      assert.equal(r.tracked_commits, 5);
      assert.equal(r.total_prompts, 8);
      assert.equal(r.total_files, 13);
      assert.equal(r.total_files_ai, 12);
      assert.equal(r.model, 'claude-opus-4-6');
      assert.deepEqual(
        r.commits.map((c) => [c.short, c.ai_ratio, c.attribution_method, c.prompts_count, c.files_total, c.files_ai]),
        [
          ['041bc43', null, null, 0, 0, 0],
          ['07e49a7', 100, 'line', 1, 4, 4],
          ['e13b790', 74, 'line', 1, 2, 2],
          ['34c9fa1', null, null, 0, 0, 0],
          ['a76d22f', 100, 'line', 4, 3, 3],
          ['7618351', 100, 'file', 1, 1, 1],
          ['8d3efc6', 98, 'line', 1, 3, 2],
        ],
      );
    });

    it('produces the JSON of `agent-note pr --json` byte for byte', () => {
      const expected = reportFixture('todo-api.pr.json');
      const { json: r } = buildPrReport(commits, { base: json('todo-api.pr.json').base });
      assert.equal(JSON.stringify(r, null, 2) + '\n', expected);
    });

    it('produces the compact Markdown of `agent-note pr` byte for byte (the tail "commit it" prompt hidden)', () => {
      const { markdown } = buildPrReport(commits);
      assert.equal(markdown, md('todo-api.pr.md'));
      assert.ok(markdown.includes('<summary>💬 Prompts & Responses (7 shown / 8 total)</summary>'));
      assert.ok(!markdown.includes('Looks good, commit it.'));
    });

    it('produces the full Markdown with --prompt-detail full', () => {
      const { markdown } = buildPrReport(commits, { promptDetail: 'full' });
      assert.equal(markdown, md('todo-api.pr.full.md'));
      assert.ok(markdown.includes('> Looks good, commit it.'));
    });

    it('links commits when the repository URL is known', () => {
      const { markdown, json: r } = buildPrReport(commits, { repoUrl: prReportRepoUrl('git@github.com:acme/todo-api.git') });
      assert.equal(r.repo_url, 'https://github.com/acme/todo-api');
      assert.equal(markdown, md('todo-api.pr.gh.md'));
    });

    it('gives the same report from notes read through our tolerant reader', () => {
      const viaReader = commits.map((c) => {
        if (!c.note) return c;
        const decoded = decodeNote(JSON.stringify(c.note, null, 2) + '\n');
        assert.equal(decoded.kind, 'valid');
        return { ...c, note: (decoded as { note: AgentNoteV1 }).note };
      });
      assert.equal(buildPrReport(viaReader).markdown, md('todo-api.pr.md'));
    });
  });

  it('weather-cli: all line-level ⇒ Σai/Σtotal = 125/130 ⇒ 96%, matching the CLI output', () => {
    const { json: r, markdown } = buildPrReport(peerCommitsOf('weather-cli'), { base: json('weather-cli.pr.json').base });
    assert.equal(r.overall_method, 'line');
    assert.equal(r.overall_ai_ratio, 96);
    assert.equal(JSON.stringify(r, null, 2) + '\n', reportFixture('weather-cli.pr.json'));
    assert.equal(markdown, md('weather-cli.pr.md'));
  });

  it('shop-cart: line + file commits ⇒ mixed (85·3 + 67·3 + 50·2 + 100·2)/10 = 75.6 ⇒ 76%, matching the CLI output', () => {
    const commits = peerCommitsOf('shop-cart');
    const { json: r, markdown } = buildPrReport(commits, { base: json('shop-cart.pr.json').base });
    assert.equal(r.overall_method, 'mixed');
    assert.equal(r.overall_ai_ratio, 76);
    assert.equal(JSON.stringify(r, null, 2) + '\n', reportFixture('shop-cart.pr.json'));
    assert.equal(markdown, md('shop-cart.pr.md'));
    assert.equal(buildPrReport(commits, { promptDetail: 'full' }).markdown, md('shop-cart.pr.full.md'));
  });

  describe('edge cases (synthetic repository, outputs from the CLI)', () => {
    const commits = edgeCommits();

    // The one deliberate difference from the CLI: it copies a prompt's raw HTML into the report
    // (`<script>` here; a `</details>` would end the prompts section). We write `&lt;` for a `<`
    // that could start a tag (issue #14 part 4); everything else is byte for byte.
    const defanged = (text: string) => text.replace('<script>alert(1)</script>', '&lt;script>alert(1)&lt;/script>');

    it('matches the CLI JSON and Markdown (pipes, headings, truncation, legacy rows, untracked note)', () => {
      const r = buildPrReport(commits, { base: json('edge/edge.pr.json').base });
      assert.equal(JSON.stringify(r.json, null, 2) + '\n', reportFixture('edge/edge.pr.json'));
      assert.ok(md('edge/edge.pr.md').includes('<script>alert(1)</script>'), 'the CLI output has the raw tag');
      assert.equal(r.markdown, defanged(md('edge/edge.pr.md')));
      assert.equal(buildPrReport(commits, { promptDetail: 'full' }).markdown, defanged(md('edge/edge.pr.full.md')));
    });

    it('a derived note: its sources in the JSON row and one line under the table; other rows unchanged', () => {
      const [first, ...rest] = commits;
      const derived = { ...first, note: { ...first.note!, derived_from: ['1'.repeat(40), '2'.repeat(40)] } };
      const { json, markdown } = buildPrReport([derived, ...rest]);
      assert.deepEqual(json.commits[0].derived_from, ['1'.repeat(40), '2'.repeat(40)]);
      assert.ok(json.commits.slice(1).every((c) => !('derived_from' in c)));
      assert.deepEqual(
        { ...json.commits[0], derived_from: undefined },
        { ...buildPrReport(commits).json.commits[0], derived_from: undefined },
      );
      assert.ok(
        markdown.includes(`_Derived from the noted commits of a squash or rebase merge: \`${first.short}\` ← \`1111111\`, \`2222222\`_\n`),
      );
      assert.ok(!buildPrReport(commits).markdown.includes('Derived from'));
    });

    it('escapes | in table cells but not in headings', () => {
      const { markdown } = buildPrReport(commits);
      assert.ok(
        markdown.includes('| `8422399` feat: pipes \\| in subject | ███░░ 50% | 3 | a\\|b.ts 🤖, x.md 👤, lcov.info 🤖, gen.ts 🤖 |'),
      );
      assert.ok(markdown.includes('### `8422399` feat: pipes | in subject'));
    });

    it('cuts prompts and responses at 500 characters with an ellipsis', () => {
      const { markdown } = buildPrReport(commits);
      assert.ok(markdown.includes(`> ${'a'.repeat(500)}…\n`));
      assert.ok(!markdown.includes('a'.repeat(501)));
    });

    it('shows "No tracked commits" when no note has a session id', () => {
      const untracked = commits.slice(3, 4);
      const r = buildPrReport(untracked);
      assert.equal(r.json.tracked_commits, 0);
      assert.equal(r.json.overall_method, 'none');
      assert.equal(r.markdown, md('edge/edge.untracked.md'));
    });

    it('rolls up to none when every tracked commit is none', () => {
      const r = buildPrReport(commits.slice(1, 2));
      assert.equal(r.json.overall_method, 'none');
      assert.equal(r.json.overall_ai_ratio, 0);
      assert.equal(r.markdown, md('edge/edge.allnone.md'));
    });

    it('can leave out the hidden reviewer context', () => {
      const { markdown } = buildPrReport(commits, { reviewerContext: false });
      assert.ok(!markdown.includes('agentnote-reviewer-context'));
      assert.ok(markdown.startsWith('## 🧑💬🤖 Agent Note\n\n**Total AI Ratio:** ███░░░░░ 40%\n**Model:** `claude-x`\n\n| Commit |'));
    });
  });

  it('reports an empty range without prompts or details', () => {
    const r = buildPrReport([]);
    assert.equal(r.json.total_commits, 0);
    assert.equal(r.json.head, null);
    assert.equal(
      r.markdown,
      '## 🧑💬🤖 Agent Note\n\n**Total AI Ratio:** ░░░░░░░░ 0%\n\n| Commit | AI Ratio | Prompts | Files |\n|---|---|---|---|\n',
    );
  });
});

describe('rollUp', () => {
  const row = (method: 'line' | 'file' | 'none', ratio: number, filesTotal: number, lines?: [number, number]): PrReportCommitJson => ({
    sha: 'x',
    short: 'x',
    message: 'm',
    session_id: 's',
    model: null,
    ai_ratio: ratio,
    attribution_method: method,
    prompts_count: 1,
    files_total: filesTotal,
    files_ai: Math.round((ratio / 100) * filesTotal),
    files: [],
    interactions: [],
    attribution: { ai_ratio: ratio, method, ...(lines ? { lines: { ai_added: lines[0], total_added: lines[1], deleted: 0 } } : {}) },
  });

  it('divides before rounding, like the CLI: 29/200 ⇒ 14 (integer math would give 15)', () => {
    assert.deepEqual(rollUp([row('line', 15, 1, [20, 100]), row('line', 9, 1, [9, 100])]), { ratio: 14, method: 'line' });
  });

  it('rounds half up: 1/8 ⇒ 12.5 ⇒ 13', () => {
    assert.deepEqual(rollUp([row('line', 13, 1, [1, 8])]), { ratio: 13, method: 'line' });
  });

  it('ignores line commits without added lines, and none commits next to eligible ones', () => {
    assert.deepEqual(rollUp([row('line', 0, 2, [0, 0]), row('none', 0, 0), row('line', 50, 1, [1, 2])]), { ratio: 50, method: 'line' });
  });

  it('file-only ⇒ Σfiles_ai / Σfiles_total', () => {
    assert.deepEqual(rollUp([row('file', 67, 3), row('file', 50, 2)]), { ratio: 60, method: 'file' });
  });

  it('no eligible commit ⇒ none (0)', () => {
    assert.deepEqual(rollUp([row('line', 0, 1, [0, 0])]), { ratio: 0, method: 'none' });
    assert.deepEqual(rollUp([]), { ratio: 0, method: 'none' });
  });
});

describe('progressBar / prReportRepoUrl', () => {
  it('fills round(ratio/100 × width) cells and clamps', () => {
    assert.equal(progressBar(74, 5), '████░');
    assert.equal(progressBar(96, 8), '████████');
    assert.equal(progressBar(40, 8), '███░░░░░');
    assert.equal(progressBar(-3, 5), '░░░░░');
    assert.equal(progressBar(250, 5), '█████');
  });

  it('normalizes GitHub remotes like the CLI', () => {
    assert.equal(prReportRepoUrl('git@github.com:acme/x.git'), 'https://github.com/acme/x');
    assert.equal(prReportRepoUrl('ssh://git@github.com/acme/x.git\n'), 'https://github.com/acme/x');
    assert.equal(prReportRepoUrl('https://github.com/acme/x.git'), 'https://github.com/acme/x');
    assert.equal(prReportRepoUrl('https://gitlab.example/acme/x'), 'https://gitlab.example/acme/x');
  });

  it('keeps fixture files readable from the repository root', () => {
    assert.ok(readText('test', 'fixtures', 'peer-repos', 'README.md').startsWith('# Agent Note peer fixtures'));
  });
});
