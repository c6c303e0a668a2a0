// The 3-diff core (src/core/attribution) on test/fixtures/diffs: every hunk comes from real git
// (blob-to-blob `git diff` with our pinned options in a temp repo), never from hand-written diffs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { AgentnoteIgnore } from '../../../src/core/attribution/agentnoteIgnore';
import { commitAttribution, type CommitFileInput } from '../../../src/core/attribution/commitAttribution';
import { parseDiffHunks, type DiffHunk } from '../../../src/core/attribution/diffHunks';
import { isGeneratedFile } from '../../../src/core/attribution/generatedFiles';
import type { EditPairDiff } from '../../../src/core/attribution/lineAttribution';
import {
  caseContent,
  caseRefs,
  changedPaths,
  hashRefs,
  loadCases,
  TempRepo,
  toExpectedShape,
  useIsolatedGitEnv,
  type FixtureCase,
} from './fixtureRepo';

const flags = [
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--diff-algorithm=myers',
  '--indent-heuristic',
  '--unified=0',
  '--inter-hunk-context=0',
];

describe('attribution fixtures: 3-diff core on real git hunks', () => {
  useIsolatedGitEnv();
  let repo: TempRepo;
  let empty: string;
  before(() => {
    repo = TempRepo.create();
    empty = repo.hashObject('');
  });
  after(() => repo.dispose());

  const diff = (a: string, b: string): DiffHunk[] =>
    a === b ? [] : parseDiffHunks(execFileSync('git', ['diff', ...flags, a, b], { cwd: repo.dir, env: process.env }).toString('utf8'));

  function coreInput(c: FixtureCase): CommitFileInput[] {
    const ids = hashRefs(repo, c, caseRefs(c));
    const blob = (ref: string | undefined): string => (ref === undefined ? empty : (ids.get(ref) as string));
    const ignoreRef = c.files['.agentnoteignore']?.committed;
    const ignore = ignoreRef ? AgentnoteIgnore.parse(caseContent(c, ignoreRef).toString('utf8')) : AgentnoteIgnore.empty;
    return changedPaths(c).map((path) => {
      const f = c.files[path];
      const edits = c.edits.filter((e) => e.file === path);
      const committedBlob = f.gitlink ?? blob(f.committed);
      const header = f.committed === undefined ? undefined : caseContent(c, f.committed).subarray(0, 8000);
      const input: CommitFileInput = {
        path,
        byAi: edits.length > 0,
        generated: isGeneratedFile(path, header),
        ignored: ignore.ignores(path),
        committedBlob,
        pairs: [],
        edits: edits.map((e) => ({
          interactionKey: e.interaction,
          agent: e.agent,
          postBlob: blob(e.post),
          ...(e.editAdded !== undefined ? { editAdded: e.editAdded, editDeleted: e.editDeleted } : {}),
        })),
      };
      if (f.gitlink) {
        input.unavailable = 'submodule';
        return input;
      }
      input.diff1 = diff(blob(f.parent), committedBlob);
      input.pairs = edits
        .filter((e) => e.pre !== undefined)
        .map((e, i): EditPairDiff => {
          const pre = blob(e.pre);
          const post = blob(e.post);
          return {
            pairId: `${path}#${i}`,
            preBlob: pre,
            postBlob: post,
            diff2: diff(pre, committedBlob),
            diff3: diff(post, committedBlob),
            interactionKey: e.interaction,
            agent: e.agent,
          };
        });
      return input;
    });
  }

  for (const c of loadCases()) {
    it(`${c.name}: ${c.description}`, () => {
      const result = commitAttribution({ files: coreInput(c), hasEditData: c.edits.length > 0 });
      assert.deepEqual(toExpectedShape(result), c.expected);
    });
  }
});
