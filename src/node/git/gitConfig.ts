import { setTimeout as delay } from 'node:timers/promises';
import { GitError, type GitRunner } from './gitRunner';

/**
 * A `git config` write, retried while another process (the git extension, a terminal, another
 * window's Agent Note) holds the lock of the config file.
 */
export async function writeConfig(git: GitRunner, args: string[], okExitCodes: number[] = []): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await git.run(['config', ...args], { okExitCodes });
      return;
    } catch (e) {
      const locked = GitError.is(e, 'failed') && /could not lock config file/i.test(e.stderr ?? e.message);
      if (!locked || attempt >= 8) throw e;
      await delay(25 * 2 ** Math.min(attempt, 5));
    }
  }
}
