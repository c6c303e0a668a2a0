// Git argument safety (issue #14 part 7): values from a transcript, the journal, a note or a
// command argument reach git only as validated object ids or after --end-of-options / `--`; and
// symlinked, gitignored and huge files never go into the object store.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isSafeRevision } from '../../../src/core/git/gitArgs';
import { isObjectId } from '../../../src/core/git/objectId';
import { isSafeRelPath } from '../../../src/core/git/repoPath';
import { BlobStore, maxHashableBytes } from '../../../src/node/git/blobStore';
import { CommitDiffs } from '../../../src/node/attribution/commitDiffs';
import { NoteStore } from '../../../src/node/notes/noteStore';
import { commitSummary, logCommits, rangeCommits } from '../../../src/host/gitQueries';
import { TempRepo, useIsolatedGitEnv } from '../../helpers/tempRepo';
import { Harness } from '../recorder/recorderHarness';

const SID = '5b7d3c1e-2a4f-4e6b-8c9d-0e1f2a3b4c5d';

describe('git argument safety', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();

  it('validators', () => {
    assert.equal(isObjectId('a'.repeat(40)), true);
    assert.equal(isObjectId('b'.repeat(64)), true);
    for (const bad of ['A'.repeat(40), 'a'.repeat(39), 'a'.repeat(41), '--output=x', '', 42, null]) assert.equal(isObjectId(bad), false);
    for (const ok of ['main', 'origin/main', 'HEAD~10', 'v1.2^{commit}', 'a'.repeat(40)]) assert.equal(isSafeRevision(ok), true, ok);
    for (const bad of ['--output=/tmp/x', '-n1', '', 'a b', 'a\nb', 'x\0', 'x'.repeat(300)]) assert.equal(isSafeRevision(bad), false, bad);
    for (const ok of ['a.txt', 'dir/b c.ts', 'q"uote\nnl.txt', './x']) assert.equal(isSafeRelPath(ok), true, ok);
    for (const bad of ['', '/etc/passwd', 'C:/x', '../x', 'a/../../x', '.git/config', '.GIT/hooks/pre-commit', 'a\0b'])
      assert.equal(isSafeRelPath(bad), false, bad);
  });

  describe('in a repository', () => {
    let repo: TempRepo;
    const tmpFiles: string[] = [];
    beforeEach(async () => {
      repo = await TempRepo.create({ initialFiles: { 'README.md': 'hello\n', '.gitignore': '.env\nsecrets/\n' } });
    });
    afterEach(async () => {
      await repo.remove();
      for (const f of tmpFiles.splice(0)) fs.rmSync(f, { recursive: true, force: true });
    });

    it('revisions from command arguments never become options (no file written by --output=)', async () => {
      const target = path.join(os.tmpdir(), `agentnote-pwned-${process.pid}-${Date.now()}`);
      tmpFiles.push(target);
      const git = repo.runner();
      assert.deepEqual(await logCommits(git, `--output=${target}`), []);
      assert.deepEqual(await rangeCommits(git, `--output=${target}`), []);
      assert.equal(await commitSummary(git, `--output=${target}`), undefined);
      assert.equal(fs.existsSync(target), false);
      assert.equal((await logCommits(git, 'HEAD')).length, 1, 'a normal revision still works');
      const store = new NoteStore(git);
      assert.equal(await store.has(`--output=${target}`), false);
      assert.equal(fs.existsSync(target), false);
    });

    it('journal blob ids that are not object ids never reach git diff', async () => {
      const diffs = new CommitDiffs(repo.runner());
      const target = path.join(os.tmpdir(), `agentnote-pwned-diff-${process.pid}`);
      tmpFiles.push(target);
      await assert.rejects(diffs.blobDiff(`--output=${target}`, 'a'.repeat(40)));
      assert.equal(fs.existsSync(target), false);
    });

    it('refuses gitignored, symlinked, through-a-symlink and huge files; tracked ones are fine', async () => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'agentnote-outside-'));
      tmpFiles.push(outside);
      fs.writeFileSync(path.join(outside, 'id_rsa'), 'not the repository content\n');
      await repo.write('.env', 'TOKEN=secret\n');
      await repo.write('secrets/db.txt', 'pw\n');
      await repo.write('ok.ts', 'export {};\n');
      fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(repo.dir, 'link.txt'));
      fs.symlinkSync(outside, path.join(repo.dir, 'linkdir'));
      await repo.write('big.bin', Buffer.alloc(maxHashableBytes + 1, 1));
      const store = new BlobStore(repo.runner());
      try {
        const r = await store.refusals([
          { path: 'ok.ts' },
          { path: '.env' },
          { path: 'secrets/db.txt' },
          { path: 'link.txt' },
          { path: 'linkdir/id_rsa' },
          { path: 'big.bin' },
          { path: 'ok.ts', bytes: maxHashableBytes + 1 },
          { path: '../outside.txt' },
          { path: '.git/config' },
          { path: 'README.md' },
        ]);
        assert.deepEqual(r, [
          undefined,
          'ignored',
          'ignored',
          'symlink',
          'symlink',
          'tooLarge',
          'tooLarge',
          'unsafePath',
          'unsafePath',
          undefined,
        ]);
        // hashFiles never reads through a symbolic link
        const ids = await store.hashFiles(['ok.ts', 'link.txt', 'linkdir/id_rsa', 'big.bin']);
        assert.equal(typeof ids[0], 'string');
        assert.deepEqual(ids.slice(1), [undefined, undefined, undefined]);
      } finally {
        store.dispose();
      }
    });
  });

  describe('the recorder', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    });

    it('an agent edit of a gitignored file is not captured: its content never enters the object store', async () => {
      h = await Harness.create({ '.gitignore': '.env\n', 'app.ts': 'export {};\n' });
      const s = h.session('claude', SID, 'claude-opus-4-6');
      await s.start();
      h.advance(1000);
      await s.prompt('Put the deploy token into .env and use it in app.ts');
      h.advance(500);
      const marker = `DEPLOY_TOKEN=${'zq8'}${'W'.repeat(3)}-unique-${Date.now()}`;
      await h.change('.env', `${marker}\n`, 'disk');
      h.advance(100);
      await s.edit('.env', { tool: 'Write', toolUseId: 'toolu_1', contents: `${marker}\n` });
      const app = 'export {};\nexport const token = process.env.DEPLOY_TOKEN;\n';
      await h.change('app.ts', app, 'disk');
      h.advance(100);
      await s.edit('app.ts', { tool: 'Write', toolUseId: 'toolu_2', contents: app });
      h.advance(500);
      await h.tick();
      const objects = await h.repo.git(['cat-file', '--batch-all-objects', '--batch']);
      assert.ok(!objects.includes(marker), 'the ignored file content is in the object store');
      assert.ok(objects.includes('process.env.DEPLOY_TOKEN'), 'the tracked file was captured');
      assert.ok(h.recorder.counters.get('recorder.blobsRefused.ignored') >= 1);
      assert.ok(h.log.some((l) => /not stored in the object store: \d+ ignored/.test(l.text)));
    });
  });
});
