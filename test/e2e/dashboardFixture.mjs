// A scripted repository for the dashboard tests: `count` commits on main (every 7th without a note,
// a merge every 25 commits from a side branch, a `(#n)` squash subject every 40), each noted commit
// with a deterministic Agent Note v1 note, all written by ONE `git fast-import` (seconds for 5,000).
//   node test/e2e/dashboardFixture.mjs <dir> [count]   (default 5,600 commits: 5,024 notes)
// The expected figures are never taken from here: tests read the notes back through git.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const agents = [
  ['claude', 'claude-sonnet-4-5'],
  ['codex', 'gpt-5-codex'],
  ['cursor', null],
  ['gemini', 'gemini-2.5-pro'],
];
const dirs = ['src/core', 'src/node', 'src/ui', 'test', 'docs'];

function note(i) {
  const [agent, model] = agents[i % agents.length];
  const total = 5 + (i % 37);
  const aiAdded = Math.round((total * ((i * 37) % 101)) / 100);
  const method = i % 11 === 0 ? 'file' : 'line';
  const f1 = `${dirs[i % dirs.length]}/file${i % 13}.ts`;
  const f2 = `${dirs[(i + 2) % dirs.length]}/file${i % 5}.ts`;
  const files = [
    {
      path: f1,
      by_ai: aiAdded > 0,
      ...(aiAdded > 0 && method === 'line' ? { ai_ranges: [{ start: 1, end: aiAdded, interaction: 0 }] } : {}),
    },
    { path: f2, by_ai: false },
  ];
  return {
    v: 1,
    agent,
    session_id: `session-${Math.floor(i / 10)}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    model,
    interactions: [
      { prompt: `Change ${f1} for task ${i} <script>alert(${i})</script>`, response: 'done', files_touched: [f1] },
      ...(i % 3 === 0 ? [{ prompt: `continue ${i}`, response: null }] : []),
    ],
    files,
    attribution:
      method === 'line'
        ? { ai_ratio: Math.round((aiAdded / total) * 100), method, lines: { ai_added: aiAdded, total_added: total, deleted: i % 4 } }
        : { ai_ratio: aiAdded > 0 ? 50 : 0, method },
  };
}

/** Creates the repository in `dir`; returns the number of notes written. */
export function makeDashboardFixture(dir, count = 5600) {
  mkdirSync(dir, { recursive: true });
  const git = (args, input) =>
    execFileSync('git', args, { cwd: dir, input, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  git(['-c', 'init.defaultBranch=main', 'init', '-q']);
  const out = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const t0 = Date.UTC(2026, 0, 1) / 1000;
  const notes = [];
  let mark = 0;
  let mainTip = 0;
  for (let i = 1; i <= count; i++) {
    const ts = t0 + i * 3600;
    const isMerge = i % 25 === 0 && mainTip > 0;
    let sideMark = 0;
    if (isMerge) {
      // a side-branch commit, then a merge of it into main
      sideMark = ++mark;
      out.push(`commit refs/heads/feature\nmark :${sideMark}\ncommitter Bea Side <bea@example.com> ${ts - 60} +0000\n`);
      out.push(data(`feat: side work ${i}`));
      out.push(`from :${mainTip}\nM 100644 inline side/file${i}.ts\n${data(`export const side${i} = ${i};`)}`);
      notes.push([sideMark, note(i + 100000)]);
    }
    const m = ++mark;
    const subject = isMerge
      ? `Merge pull request #${i} from feature`
      : i % 40 === 0
        ? `fix: squash-merged change ${i} (#${i})`
        : `change ${i}`;
    out.push(`commit refs/heads/main\nmark :${m}\ncommitter Ann Dev <ann@example.com> ${ts} +0000\n`);
    out.push(data(subject));
    if (mainTip) out.push(`from :${mainTip}\n`);
    if (isMerge) out.push(`merge :${sideMark}\n`);
    out.push(`M 100644 inline ${dirs[i % dirs.length]}/file${i % 13}.ts\n${data(`export const v${i} = ${i};`)}`);
    mainTip = m;
    if (i % 7 !== 0) notes.push([m, note(i)]);
  }
  out.push(
    `commit refs/notes/agentnote\ncommitter Ann Dev <ann@example.com> ${t0 + count * 3600 + 60} +0000\n${data('Notes added by the dashboard fixture')}`,
  );
  for (const [m, n] of notes) out.push(`N inline :${m}\n${data(JSON.stringify(n, null, 2))}`);
  git(['fast-import', '--quiet'], out.join(''));
  git(['reset', '-q', '--hard', 'main']);
  return notes.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = makeDashboardFixture(process.argv[2], Number(process.argv[3] ?? 5600));
  console.log(`${n} notes`);
}
