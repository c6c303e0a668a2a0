// Workspace fixtures for the in-host suites. Each scenario gets its own code-server, isolated HOME
// and workspace; `suite` selects the test files (out/test/suite/<suite>/*.test.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeGitFixture, ROOT } from './harness.mjs';
import { createDemoRepository } from './demo-repo.mjs';
import { makeHostileRepository } from './hostile-repo.mjs';

export const scenarios = [
  {
    name: 'git',
    suite: 'git',
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    name: 'peer',
    suite: 'peer',
    setup: ({ base }) => clonePeerBundle('todo-api', join(base, 'todo-api')),
  },
  {
    name: 'demo',
    suite: 'demo',
    setup: ({ base, home }) => createDemoRepository({ base, home }),
  },
  {
    // two editor windows on one repository: the runner opens a second workbench window on the same
    // folder (its own extension host with Agent Note) before the window that runs the suite
    name: 'windows',
    suite: 'windows',
    secondWindow: true,
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
  },
  {
    // notes carrying the hostile-string corpus, a 3,000-deep nesting, 30 MB notes (issue #14)
    name: 'hostile',
    suite: 'hostile',
    setup: ({ base }) => makeHostileRepository(join(base, 'hostile')),
  },
  {
    name: 'nogit',
    suite: 'nogit',
    setup: ({ base }) => {
      const dir = join(base, 'plain-folder');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'notes.txt'), 'not a repository\n');
      return dir;
    },
  },
];

/** A clone of a peer bundle (notes written by the Agent Note CLI) with refs/notes/agentnote fetched. */
export function clonePeerBundle(name, dir) {
  const bundle = join(ROOT, 'test/fixtures/peer-repos', `${name}.bundle`);
  execFileSync('git', ['clone', '-q', bundle, dir], { stdio: 'pipe' });
  execFileSync('git', ['fetch', '-q', bundle, 'refs/notes/agentnote:refs/notes/agentnote'], { cwd: dir, stdio: 'pipe' });
  execFileSync('git', ['checkout', '-q', '-B', 'main'], { cwd: dir, stdio: 'pipe' });
  return dir;
}
