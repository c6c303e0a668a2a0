// analyzeCommit end to end: real commits in temp repos, pre/post blobs written with hash-object -w.
import * as assert from 'node:assert/strict';
import { noteFiles } from '../../../src/core/attribution/commitAttribution';
import { analyzeCommit, type EditPairInput } from '../../../src/node/attribution/commitDiffs';
import { GitRunner } from '../../../src/node/git/gitRunner';
import { commitCase, hashRefs, loadCases, TempRepo, toExpectedShape, useIsolatedGitEnv, type FixtureCase } from './fixtureRepo';

function casePairs(repo: TempRepo, c: FixtureCase): EditPairInput[] {
  const ids = hashRefs(
    repo,
    c,
    c.edits.flatMap((e) => (e.pre === undefined ? [e.post] : [e.pre, e.post])),
  );
  return c.edits.map((e, i) => ({
    file: e.file,
    ...(e.pre !== undefined ? { preBlob: ids.get(e.pre) } : {}),
    postBlob: ids.get(e.post) as string,
    interactionKey: e.interaction,
    agent: e.agent,
    timestamp: 1_000 * (i + 1),
    ...(e.editAdded !== undefined ? { editAdded: e.editAdded, editDeleted: e.editDeleted } : {}),
  }));
}

describe('analyzeCommit on the diff fixtures (real commits)', () => {
  useIsolatedGitEnv();

  for (const c of loadCases()) {
    it(`${c.name}`, async () => {
      const repo = TempRepo.create();
      try {
        const sha = commitCase(repo, c);
        const result = await analyzeCommit(new GitRunner(repo.dir), 'HEAD', casePairs(repo, c));
        assert.equal(result.sha, sha);
        assert.deepEqual(toExpectedShape(result), c.expected);
        assert.deepEqual(result.degraded, []);
        // files[] of the note: v1 keys in the CLI's order, one entry per commit path.
        const v1 = noteFiles(result, () => null, { ranges: false });
        assert.deepEqual(
          v1,
          c.expected.files.map((f) => ({
            path: f.path,
            by_ai: f.by_ai,
            ...(f.generated ? { generated: true } : {}),
            ...(f.ai_ratio_excluded ? { ai_ratio_excluded: true } : {}),
          })),
        );
      } finally {
        repo.dispose();
      }
    });
  }
});
