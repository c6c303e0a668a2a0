import * as assert from 'node:assert/strict';
import { PushDetector } from '../../../src/node/sharing/pushDetector';
import { type Clones, twoClones } from '../../helpers/sharingFixture';
import { useIsolatedGitEnv } from '../../helpers/tempRepo';

describe('PushDetector (reflogs of remote-tracking refs)', function () {
  this.timeout(60_000);
  useIsolatedGitEnv();
  let k: Clones;
  let detector: PushDetector;
  beforeEach(async () => {
    k = await twoClones();
    const commonDir = (await k.a.git(['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
    detector = new PushDetector(commonDir, () => ['origin', 'team/mirror']);
  });
  afterEach(() => k.remove());

  it('reports no push made before it started (opening a folder shares nothing)', async () => {
    await detector.start();
    assert.deepEqual(await detector.check(), []);
  });

  it('open, checkout, commit, reset, fetch and pull are not pushes; a push of any branch is, once', async () => {
    await detector.start();
    await k.b.commit({ 'b.txt': 'b\n' }, 'B');
    await k.b.git(['push', '-q', 'origin', 'main']);
    await k.b.git(['push', '-q', 'origin', 'main:elsewhere']);
    await k.a.git(['fetch', '-q']);
    await k.a.git(['pull', '-q']);
    await k.a.git(['checkout', '-q', '-b', 'topic']);
    await k.a.commit({ 't.txt': 't\n' }, 'topic');
    await k.a.git(['reset', '-q', '--hard', 'HEAD~1']);
    await k.a.git(['checkout', '-q', 'main']);
    await k.a.git(['fetch', '-q', '--prune']);
    assert.deepEqual(await detector.check(), []);

    await k.a.commit({ 'a2.txt': 'a\n' }, 'A');
    await k.a.git(['push', '-q', 'origin', 'main']);
    assert.deepEqual(await detector.check(), [{ remote: 'origin', refs: ['refs/remotes/origin/main'] }]);
    assert.deepEqual(await detector.check(), [], 'reported once');

    await k.b.git(['push', '-q', 'origin', 'main:refs/heads/new-branch']);
    await k.a.git(['fetch', '-q']); // creates refs/remotes/origin/new-branch by fetch: not a push
    assert.deepEqual(await detector.check(), []);
    await k.a.git(['push', '-q', '-u', 'origin', 'topic:topic']);
    assert.deepEqual(await detector.check(), [{ remote: 'origin', refs: ['refs/remotes/origin/topic'] }]);
  });

  it('maps remote names with slashes, and sees a branch deleted and pushed again', async () => {
    await k.a.git(['remote', 'add', 'team/mirror', k.remote.dir]);
    await k.a.git(['fetch', '-q', 'team/mirror']);
    await detector.start();
    await k.a.git(['push', '-q', 'team/mirror', 'main:feature/x']);
    assert.deepEqual(await detector.check(), [{ remote: 'team/mirror', refs: ['refs/remotes/team/mirror/feature/x'] }]);
    await k.a.git(['push', '-q', 'team/mirror', '--delete', 'feature/x']);
    assert.deepEqual(await detector.check(), []);
    await k.a.git(['push', '-q', 'team/mirror', 'main:feature/x']);
    assert.deepEqual(await detector.check(), [{ remote: 'team/mirror', refs: ['refs/remotes/team/mirror/feature/x'] }]);
  });
});
