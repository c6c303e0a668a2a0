// Workspace fixtures for the in-host suites. Each scenario gets its own code-server, isolated HOME
// and workspace; `suite` selects the test files (out/test/suite/<suite>/*.test.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitFixture } from './harness.mjs';

export const scenarios = [
  {
    name: 'git',
    suite: 'git',
    setup: ({ base }) => makeGitFixture(join(base, 'workspace')),
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
