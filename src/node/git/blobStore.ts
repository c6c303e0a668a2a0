import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { lstat, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { isSafeRelPath, toPosixPath } from '../../core/git/repoPath';
import { isObjectId } from '../../core/git/objectId';
import { type Logger, nullLogger } from '../../core/ports';
import { GitError, type GitRunner, pinnedConfig, pinnedEnv } from './gitRunner';

/** Content to store as a blob, hashed as if it were the work-tree file at `path`. */
export interface BlobItem {
  /** Repository-relative path (forward slashes); selects the filters (.gitattributes, autocrlf). */
  path: string;
  content: string | Buffer;
}

export interface BlobStoreOptions {
  log?: Logger;
  /** Kill the idle `cat-file --batch` process after this many ms (default 30 s). */
  idleMs?: number;
  /** Per-request timeout of the batch reader (default: the runner's timeout). */
  requestTimeoutMs?: number;
  /**
   * Runner of the writing processes (`check-attr`, `hash-object`, `config`), e.g. a lower-priority
   * one for background capture; default: the reader's runner. Reads keep the one `cat-file` process.
   */
  writeGit?: GitRunner;
}

/**
 * Largest content we hash into the object store (8 MiB): captured edits of bigger files are not
 * stored (their lines count as the person's). Documented in the README.
 */
export const maxHashableBytes = 8 * 1024 * 1024;

/** Why a path or content is never hashed into the object store. */
export type HashRefusal = 'unsafePath' | 'symlink' | 'ignored' | 'tooLarge';

/** Attributes that make git transform content on its way into the object store. */
const filterAttributes = ['text', 'eol', 'crlf', 'ident', 'filter', 'working-tree-encoding'];

interface PendingRead {
  name: string;
  attempts: number;
  resolve: (v: { type: string; content: Buffer } | undefined) => void;
  reject: (e: Error) => void;
}

/**
 * Writes and reads git blobs in batches.
 *
 * Writing (`hashContents`): git applies the clean-side filters of a path (CRLF normalization
 * from `core.autocrlf` or the `text`/`eol`/`crlf` attributes, `ident`, `filter` drivers such as
 * LFS, `working-tree-encoding`) when it hashes with `--path`, but `--path` cannot be combined
 * with `--stdin-paths` and applies one path to every file of an invocation. So a batch is split:
 * 1. one `git check-attr -z --stdin` for all paths (plus `git config core.autocrlf` only if some
 *    content contains a CR);
 * 2. items on which no filter can have an effect (no filter/encoding attribute; no CR or no CRLF
 *    setting; no `$Id` under `ident`) are stored verbatim: all of them in ONE
 *    `git hash-object -w --no-filters --stdin-paths` over temp files — exact, because git would
 *    not have changed their bytes either;
 * 3. the rest go through `git hash-object -w --path=<p> <files…>`, one process per distinct path,
 *    so git itself applies the exact conversion.
 * `core.safecrlf` is forced off so an irreversible CRLF conversion never makes hashing fail.
 *
 * Reading (`read`/`readMany`): one long-lived `git cat-file --batch` process, restarted when it
 * dies (requests in flight are retried once), stopped after `idleMs` without requests and by
 * dispose(). While idle it does not keep the Node event loop alive.
 */
export class BlobStore {
  private readonly log: Logger;
  private readonly idleMs: number;
  private readonly requestTimeoutMs: number;
  private child: ChildProcessWithoutNullStreams | undefined;
  private pending: PendingRead[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header: { type: string; size: number } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private requestTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private emptyBlob: Promise<string> | undefined;
  private readonly writer: GitRunner;

  constructor(
    private readonly git: GitRunner,
    opts: BlobStoreOptions = {},
  ) {
    this.log = opts.log ?? nullLogger;
    this.writer = opts.writeGit ?? git;
    this.idleMs = opts.idleMs ?? 30_000;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? git.timeoutMs;
  }

  /** Process id of the running `cat-file --batch` process, if any (diagnostics and tests). */
  get readerPid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Writes each content as a blob with the filters git applies to its path, in a few git
   * processes per call (see the class comment). Returns the blob ids in input order.
   */
  async hashContents(items: readonly BlobItem[]): Promise<string[]> {
    if (items.length === 0) return [];
    const buffers = items.map((it) => (typeof it.content === 'string' ? Buffer.from(it.content, 'utf8') : it.content));
    const paths = items.map((it) => toPosixPath(it.path));
    const attrs = await this.checkAttributes([...new Set(paths)]);
    const anyCr = buffers.some((b) => b.includes(0x0d));
    const autocrlf = anyCr ? await this.autocrlf() : false;

    const verbatim: number[] = [];
    const byPath = new Map<string, number[]>();
    buffers.forEach((buf, i) => {
      if (needsFilters(buf, attrs.get(paths[i]) ?? {}, autocrlf)) {
        const list = byPath.get(paths[i]) ?? [];
        list.push(i);
        byPath.set(paths[i], list);
      } else verbatim.push(i);
    });

    const out = new Array<string>(items.length);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agentnote-blobs-'));
    try {
      await Promise.all(buffers.map((b, i) => writeFile(path.join(dir, String(i)), b, { mode: 0o600 })));
      if (verbatim.length > 0) {
        const ids = await this.hashObject(
          ['--no-filters', '--stdin-paths'],
          verbatim.map((i) => cQuote(path.join(dir, String(i)))).join('\n') + '\n',
        );
        verbatim.forEach((i, k) => (out[i] = ids[k]));
      }
      for (const [p, idx] of byPath) {
        const ids = await this.hashObject([`--path=${p}`, '--', ...idx.map((i) => path.join(dir, String(i)))]);
        idx.forEach((i, k) => (out[i] = ids[k]));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    if (out.some((id) => !isObjectId(id))) {
      throw new GitError('failed', 'git hash-object returned an unexpected number of ids');
    }
    return out;
  }

  /**
   * Writes the current work-tree files (repository-relative paths) as blobs, filters applied,
   * in one `git hash-object -w --stdin-paths`. Missing paths, directories, symbolic links and
   * paths through one give undefined (their content is not the repository's); so do files over
   * {@link maxHashableBytes}. Callers check {@link refusals} first for gitignored paths.
   */
  async hashFiles(relPaths: readonly string[]): Promise<(string | undefined)[]> {
    const out = new Array<string | undefined>(relPaths.length).fill(undefined);
    const regular: number[] = [];
    const realRoot = await realpath(this.git.cwd).catch(() => path.resolve(this.git.cwd));
    await Promise.all(
      relPaths.map(async (rel, i) => {
        const norm = toPosixPath(rel);
        if (!isSafeRelPath(norm)) return;
        const abs = path.join(this.git.cwd, ...norm.split('/'));
        try {
          // the real path must be the path itself: no symbolic link on the way
          const real = await realpath(abs);
          if (real !== path.join(realRoot, ...norm.split('/'))) return;
          const st = await lstat(abs);
          if (st.isFile() && st.size <= maxHashableBytes) regular.push(i);
        } catch {
          /* missing: undefined */
        }
      }),
    );
    regular.sort((a, b) => a - b);
    if (regular.length > 0) {
      const ids = await this.hashObject(['--stdin-paths'], regular.map((i) => cQuote(toPosixPath(relPaths[i]))).join('\n') + '\n');
      regular.forEach((i, k) => (out[i] = ids[k]));
    }
    return out;
  }

  /**
   * Which of these work-tree paths (with the size of the content to store; omitted: the file's
   * size on disk) must never be hashed into the object store, and why (undefined: may be):
   * a path outside the work tree or inside `.git`, a symbolic link or a path through one (its
   * content is not the repository's), a gitignored path (`git check-ignore`; tracked files are
   * never ignored) or content over {@link maxHashableBytes}. One git process per call.
   */
  async refusals(items: readonly { path: string; bytes?: number }[]): Promise<(HashRefusal | undefined)[]> {
    const out = new Array<HashRefusal | undefined>(items.length).fill(undefined);
    if (items.length === 0) return out;
    const root = path.resolve(this.git.cwd);
    // one check per distinct path (an edit's pre and post content share it), a few file-system
    // calls at a time so that a batch of 500 files does not hold the extension host's thread
    const byPath = new Map<string, number[]>();
    items.forEach((it, i) => {
      const rel = toPosixPath(it.path);
      if (!isSafeRelPath(rel)) out[i] = 'unsafePath';
      else byPath.set(rel, [...(byPath.get(rel) ?? []), i]);
    });
    const linkCache = new Map<string, Promise<boolean>>();
    /** True when `rel` or a folder between the work-tree root and it is a symbolic link. */
    const throughLink = (rel: string): Promise<boolean> => {
      const hit = linkCache.get(rel);
      if (hit) return hit;
      const cut = rel.lastIndexOf('/');
      const parent = cut > 0 ? rel.slice(0, cut) : '';
      const p = (async () => {
        if (parent && (await throughLink(parent))) return true;
        try {
          return (await lstat(path.join(root, ...rel.split('/')))).isSymbolicLink();
        } catch {
          return false; // missing: nothing is read through it
        }
      })();
      linkCache.set(rel, p);
      return p;
    };
    const candidates: string[] = [];
    const paths = [...byPath.keys()];
    for (let k = 0; k < paths.length; k += 16) {
      await Promise.all(
        paths.slice(k, k + 16).map(async (rel) => {
          const idx = byPath.get(rel) ?? [];
          const refuse = (r: HashRefusal, which: readonly number[] = idx) => which.forEach((i) => (out[i] = r));
          if (await throughLink(rel.replace(/\/+$/, ''))) return refuse('symlink');
          const needSize = idx.filter((i) => items[i].bytes === undefined);
          let diskBytes = 0;
          if (needSize.length > 0) {
            try {
              diskBytes = (await lstat(path.join(root, ...rel.split('/')))).size;
            } catch {
              diskBytes = 0;
            }
          }
          const large = idx.filter((i) => (items[i].bytes ?? diskBytes) > maxHashableBytes);
          if (large.length > 0) refuse('tooLarge', large);
          if (large.length < idx.length) candidates.push(rel);
        }),
      );
    }
    if (candidates.length > 0) {
      const listed = await this.writer.run(['check-ignore', '-z', '--stdin'], { input: candidates.join('\0') + '\0', okExitCodes: [1] });
      for (const rel of listed.split('\0')) {
        for (const i of byPath.get(rel) ?? []) if (out[i] === undefined) out[i] = 'ignored';
      }
    }
    return out;
  }

  /** Writes the empty blob into the object store (once per store) and returns its id. */
  ensureEmptyBlob(): Promise<string> {
    this.emptyBlob ??= this.hashObject(['--no-filters', '--stdin'], '').then(
      (ids) => ids[0],
      (e: unknown) => {
        this.emptyBlob = undefined; // never cache a failure
        throw e;
      },
    );
    return this.emptyBlob;
  }

  /** Contents of a blob (any object name git understands, e.g. a SHA or `HEAD:path`); undefined if missing or not a blob. */
  async read(objectName: string): Promise<Buffer | undefined> {
    const r = await this.readObject(objectName);
    return r?.type === 'blob' ? r.content : undefined;
  }

  /** Reads several blobs through the same batch process; results in input order. */
  readMany(objectNames: readonly string[]): Promise<(Buffer | undefined)[]> {
    return Promise.all(objectNames.map((n) => this.read(n)));
  }

  /** Stops the batch process; the store cannot be used afterwards. */
  dispose(): void {
    this.disposed = true;
    this.failPending(new GitError('failed', 'blob store disposed'));
    this.stopReader();
  }

  // ── writing ──

  private async hashObject(args: string[], input?: string): Promise<string[]> {
    const out = await this.writer.run(['-c', 'core.safecrlf=false', 'hash-object', '-w', ...args], { input: input ?? '' });
    return out.split('\n').filter((l) => l.length > 0);
  }

  private async checkAttributes(paths: string[]): Promise<Map<string, Record<string, string>>> {
    const out = await this.writer.run(['check-attr', '-z', '--stdin', ...filterAttributes], { input: paths.join('\0') + '\0' });
    const parts = out.split('\0');
    const map = new Map<string, Record<string, string>>();
    for (let i = 0; i + 2 < parts.length; i += 3) {
      const rec = map.get(parts[i]) ?? {};
      rec[parts[i + 1]] = parts[i + 2];
      map.set(parts[i], rec);
    }
    return map;
  }

  private async autocrlf(): Promise<boolean> {
    const v = (await this.writer.run(['config', '--get', 'core.autocrlf'], { okExitCodes: [1] })).trim().toLowerCase();
    return v === 'true' || v === 'input' || v === 'yes' || v === 'on' || v === '1';
  }

  // ── reading ──

  private readObject(name: string): Promise<{ type: string; content: Buffer } | undefined> {
    if (this.disposed) return Promise.reject(new GitError('failed', 'blob store disposed'));
    if (!name || /[\r\n]/.test(name)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const req: PendingRead = { name, attempts: 0, resolve, reject };
      this.pending.push(req);
      this.send(req);
    });
  }

  private send(req: PendingRead): void {
    const child = this.ensureReader();
    req.attempts++;
    this.clearIdle();
    child.stdin.write(`${req.name}\n`);
    this.armRequestTimer();
  }

  private ensureReader(): ChildProcessWithoutNullStreams {
    if (this.child) {
      this.setRef(true);
      return this.child;
    }
    const child = spawn(this.git.gitPath, [...pinnedConfig.flatMap((c) => ['-c', c]), 'cat-file', '--batch'], {
      cwd: this.git.cwd,
      env: { ...process.env, ...pinnedEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.git.lowerPriority(child.pid);
    this.child = child;
    this.chunks = [];
    this.buffered = 0;
    this.header = undefined;
    this.git.counters.inc('git.calls');
    child.stdout.on('data', (d: Buffer) => {
      if (this.child !== child) return;
      this.chunks.push(d);
      this.buffered += d.length;
      this.drain();
    });
    child.stderr.on('data', (d: Buffer) => this.log.debug(`cat-file: ${d.toString('utf8').trim().slice(0, 300)}`));
    child.stdin.on('error', () => {
      /* the exit handler restarts or fails the requests */
    });
    child.on('error', (e) => this.onReaderExit(child, e));
    child.on('close', (code, signal) =>
      this.onReaderExit(child, new GitError('failed', `git cat-file --batch exited (${code ?? signal})`)),
    );
    return child;
  }

  private onReaderExit(child: ChildProcessWithoutNullStreams, err: Error): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.clearRequestTimer();
    if (this.pending.length === 0) return;
    this.git.counters.inc('git.catFileRestarts');
    this.log.warn(`git cat-file --batch stopped with ${this.pending.length} request(s) in flight: ${err.message}`);
    const retry = this.pending.filter((r) => r.attempts < 2);
    for (const r of this.pending) if (r.attempts >= 2) r.reject(err instanceof GitError ? err : new GitError('spawn', err.message));
    this.pending = [];
    if (this.disposed) return;
    for (const r of retry) {
      this.pending.push(r);
      this.send(r);
    }
  }

  private drain(): void {
    for (;;) {
      const req = this.pending[0];
      if (!req) return;
      // Wait for the whole object before joining chunks (large blobs arrive in many chunks).
      if (this.header && this.buffered < this.header.size + 1) return;
      let buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
      if (!this.header) {
        const nl = buf.indexOf(0x0a);
        if (nl < 0) {
          this.chunks = [buf];
          return;
        }
        const line = buf.subarray(0, nl).toString('utf8');
        buf = buf.subarray(nl + 1);
        const m = /^\S+ (\S+) (\d+)$/.exec(line);
        if (!m) {
          // "<name> missing" / "<name> ambiguous"
          this.setBuffer(buf);
          this.pending.shift();
          req.resolve(undefined);
          this.afterResponse();
          continue;
        }
        this.header = { type: m[1], size: Number(m[2]) };
        this.setBuffer(buf);
        if (buf.length < this.header.size + 1) return;
      }
      const { type, size } = this.header;
      const content = Buffer.from(buf.subarray(0, size));
      this.setBuffer(buf.subarray(size + 1));
      this.header = undefined;
      this.pending.shift();
      req.resolve({ type, content });
      this.afterResponse();
    }
  }

  private setBuffer(buf: Buffer): void {
    this.chunks = buf.length > 0 ? [buf] : [];
    this.buffered = buf.length;
  }

  private afterResponse(): void {
    if (this.pending.length > 0) {
      this.armRequestTimer();
      return;
    }
    this.clearRequestTimer();
    this.setRef(false);
    this.idleTimer = setTimeout(() => this.stopReader(), this.idleMs);
    this.idleTimer.unref();
  }

  private armRequestTimer(): void {
    this.clearRequestTimer();
    const child = this.child;
    this.requestTimer = setTimeout(() => {
      this.log.warn(`git cat-file --batch did not answer within ${this.requestTimeoutMs} ms; restarting it`);
      child?.kill('SIGKILL');
    }, this.requestTimeoutMs);
  }

  private clearRequestTimer(): void {
    if (this.requestTimer) clearTimeout(this.requestTimer);
    this.requestTimer = undefined;
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** An idle reader must not keep the extension host / test process alive. */
  private setRef(ref: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as { ref?: () => void; unref?: () => void }[]) {
      if (ref) h.ref?.();
      else h.unref?.();
    }
  }

  private stopReader(): void {
    this.clearIdle();
    this.clearRequestTimer();
    const c = this.child;
    this.child = undefined;
    if (c) {
      c.stdin.end();
      c.kill();
    }
  }

  private failPending(err: Error): void {
    const p = this.pending;
    this.pending = [];
    for (const r of p) r.reject(err);
  }
}

function isActive(v: string | undefined): boolean {
  return v !== undefined && v !== 'unspecified' && v !== 'unset';
}

/** True when git's clean-side conversion could change these bytes for a path with `attrs`. */
function needsFilters(buf: Buffer, attrs: Record<string, string>, autocrlf: boolean): boolean {
  if (isActive(attrs.filter) || isActive(attrs['working-tree-encoding'])) return true;
  if (isActive(attrs.ident) && buf.includes('$Id')) return true;
  if (buf.includes(0x0d) && (autocrlf || isActive(attrs.text) || isActive(attrs.eol) || isActive(attrs.crlf))) return true;
  return false;
}

/** C-style quoting understood by `hash-object --stdin-paths` for names with specials. */
function cQuote(p: string): string {
  if (!/["\\\n\t\r]/.test(p)) return p;
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r')}"`;
}
