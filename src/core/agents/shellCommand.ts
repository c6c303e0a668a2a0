/**
 * Light shell-command analysis for agent shell tools (Claude Bash, Cursor Shell, Codex
 * shell/exec_command, Gemini run_shell_command): is it a real `git commit`, and may it change files.
 * Not a full shell parser: quotes, escapes, comments, heredocs, `&&`/`||`/`;`/`|`/newlines,
 * sub-shells and `bash -c '…'` scripts are understood; everything else is treated as words.
 */

interface SimpleCommand {
  words: string[];
  /** Output redirections to a real file (`> f`, `>> f`; not `2>&1`, not `/dev/null`). */
  writesFile: boolean;
}

/**
 * True when the command runs `git commit` (as a command, not as quoted text), without `--amend`.
 * `git -C dir commit`, `GIT_X=1 git commit`, `cd x && git commit`, `bash -lc "git commit …"` count.
 */
export function isGitCommitCommand(command: string): boolean {
  return simpleCommands(command).some((c) => {
    const args = gitSubcommandArgs(c.words);
    return args !== undefined && args[0] === 'commit' && !args.includes('--amend');
  });
}

const mutatingCommands = new Set([
  'cp',
  'mv',
  'rm',
  'mkdir',
  'touch',
  'tee',
  'install',
  'apply_patch',
  'applypatch',
  'truncate',
  'ln',
  'rmdir',
  'unzip',
  'patch',
]);
const mutatingGit = new Set([
  'checkout',
  'restore',
  'reset',
  'apply',
  'stash',
  'merge',
  'rebase',
  'pull',
  'cherry-pick',
  'revert',
  'mv',
  'rm',
  'switch',
  'am',
]);

/**
 * True when the command may change files in the working tree: file utilities (cp, mv, rm, mkdir,
 * touch, tee…), `sed -i`/`perl -i`, package-manager installs, output redirection to a file,
 * `apply_patch`, and git commands that rewrite the work tree.
 */
export function isMutatingShellCommand(command: string): boolean {
  return simpleCommands(command).some((c) => {
    if (c.writesFile) return true;
    const w = stripPrefixes(c.words);
    if (w.length === 0) return false;
    const name = baseName(w[0]);
    if (mutatingCommands.has(name)) return true;
    if ((name === 'sed' || name === 'perl') && w.slice(1).some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return true;
    if (name === 'cat' && c.writesFile) return true;
    const sub = w[1];
    if (name === 'npm' && ['install', 'i', 'update', 'dedupe', 'version', 'ci', 'uninstall'].includes(sub ?? '')) return true;
    if (name === 'npm' && sub === 'audit' && w[2] === 'fix') return true;
    if (name === 'pnpm' && ['add', 'install', 'i', 'update', 'remove'].includes(sub ?? '')) return true;
    if (name === 'yarn' && (sub === undefined || ['add', 'install', 'upgrade', 'remove'].includes(sub))) return true;
    const git = gitSubcommandArgs(c.words);
    return git !== undefined && mutatingGit.has(git[0] ?? '');
  });
}

/**
 * The command text of a shell tool input: a string as is; an argv array `["bash","-lc","script"]`
 * gives the script, other arrays are joined with spaces.
 */
export function shellCommandText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    const argv = value as string[];
    if (argv.length >= 3 && isShell(argv[0]) && /^-[a-z]*c$/.test(argv[1])) return argv[2];
    return argv.map((a) => (/[\s"'$&|;<>]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a)).join(' ');
  }
  return undefined;
}

function isShell(word: string): boolean {
  return ['bash', 'sh', 'zsh', 'dash', 'ksh'].includes(baseName(word));
}

function baseName(word: string): string {
  const b = word.replace(/^.*[\\/]/, '');
  return b.toLowerCase().endsWith('.exe') ? b.slice(0, -4) : b;
}

const optionsWithValue = new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-n']);
const wrappers = new Set(['sudo', 'command', 'env', 'time', 'nohup', 'exec', 'nice', 'builtin']);

function stripPrefixes(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (wrappers.has(w)) {
      i++;
      // `sudo -u ann`, `nice -n 5`, `env -C dir`: options that take a value skip it too
      while (i < words.length && words[i].startsWith('-')) i += optionsWithValue.has(words[i]) ? 2 : 1;
    } else break;
  }
  return words.slice(i);
}

const gitOptionsWithValue = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/** Arguments after `git [global options]`, or undefined when the command is not git. */
function gitSubcommandArgs(words: string[]): string[] | undefined {
  const w = stripPrefixes(words);
  if (w.length === 0 || baseName(w[0]) !== 'git') return undefined;
  let i = 1;
  while (i < w.length && w[i].startsWith('-')) {
    if (gitOptionsWithValue.has(w[i])) i += 2;
    else i++;
  }
  return w.slice(i);
}

/** Splits a command line into simple commands (recursing into `bash -c` scripts). */
function simpleCommands(command: string, depth = 0): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let writesFile = false;
  let pendingRedirect: 'file' | undefined;
  const heredocs: { delim: string; strip: boolean }[] = [];
  let pendingHeredoc: boolean | undefined;

  const endWord = () => {
    if (!inWord) return;
    if (pendingHeredoc !== undefined) {
      heredocs.push({ delim: word, strip: pendingHeredoc });
      pendingHeredoc = undefined;
    } else if (pendingRedirect) {
      if (word !== '/dev/null' && !/^&\d*$/.test(word)) writesFile = true;
      pendingRedirect = undefined;
    } else {
      words.push(word);
    }
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) {
      const w = stripPrefixes(words);
      if (depth < 3 && w.length >= 3 && isShell(w[0]) && /^-[a-z]*c$/.test(w[1])) {
        out.push(...simpleCommands(w[2], depth + 1));
      }
      out.push({ words, writesFile });
    } else if (writesFile) {
      out.push({ words: [], writesFile });
    }
    words = [];
    writesFile = false;
    pendingRedirect = undefined;
  };

  const s = command;
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '\\' && i + 1 < s.length) {
      if (s[i + 1] !== '\n') {
        word += s[i + 1];
        inWord = true;
      }
      i += 2;
      continue;
    }
    if (ch === "'") {
      const end = s.indexOf("'", i + 1);
      const stop = end === -1 ? s.length : end;
      word += s.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
      continue;
    }
    if (ch === '"') {
      i++;
      inWord = true;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length && '"\\$`'.includes(s[i + 1])) {
          word += s[i + 1];
          i += 2;
        } else {
          word += s[i];
          i++;
        }
      }
      i++;
      continue;
    }
    if (ch === '#' && !inWord) {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n') {
      endCommand();
      i++;
      // skip heredoc bodies that start after this newline
      while (heredocs.length > 0) {
        const h = heredocs.shift()!;
        for (;;) {
          if (i >= s.length) break;
          const nl = s.indexOf('\n', i);
          const line = s.slice(i, nl === -1 ? s.length : nl);
          i = nl === -1 ? s.length : nl + 1;
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break;
        }
      }
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      endWord();
      i++;
      continue;
    }
    if (ch === ';' || ch === '&' || ch === '|' || ch === '(' || ch === ')' || ch === '`' || ((ch === '{' || ch === '}') && !inWord)) {
      // `2>&1` / `>&2`: handled as a redirect target below
      if (ch === '&' && pendingRedirect) {
        word += ch;
        inWord = true;
        i++;
        continue;
      }
      endCommand();
      i++;
      continue;
    }
    if (ch === '$' && s[i + 1] === '(') {
      endCommand();
      i += 2;
      continue;
    }
    if (ch === '<' && s[i + 1] === '<' && s[i + 2] !== '<') {
      endWord();
      i += 2;
      let strip = false;
      if (s[i] === '-') {
        strip = true;
        i++;
      }
      pendingHeredoc = strip;
      while (s[i] === ' ' || s[i] === '\t') i++;
      continue;
    }
    if (ch === '>') {
      // a numeric fd right before the operator (`2>`) belongs to the operator, not to the words
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      i += s[i + 1] === '>' ? 2 : 1;
      if (s[i] === '|') i++;
      pendingRedirect = 'file';
      while (s[i] === ' ' || s[i] === '\t') i++;
      continue;
    }
    word += ch;
    inWord = true;
    i++;
  }
  endCommand();
  return out;
}
