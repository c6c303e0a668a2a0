import { promises as fs, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { GitRunner } from '../git/gitRunner';

/** Files larger than this are not captured (attribution for them degrades to file level). */
export const maxCapturedBytes = 2 * 1024 * 1024;

/**
 * Last known on-disk content of the files of one repository, so that a write by a CLI agent can
 * be turned into a before → after transition. Unknown files start from the index version
 * (or empty for a new file). Binary and oversized files are skipped.
 */
export class FileSnapshots {
  private readonly known = new Map<string, string>();

  /**
   * @param readObject reads a blob by object name (e.g. `:path`) through a long-lived
   *   `cat-file --batch` (BlobStore.read): 500 files changed on disk then cost no process each.
   */
  constructor(
    private readonly root: string,
    private readonly git: GitRunner,
    private readonly readObject?: (objectName: string) => Promise<Buffer | undefined>,
  ) {}

  /** Sets the known content (e.g. an open document at save). */
  set(rel: string, text: string): void {
    this.known.set(rel, text);
  }

  get(rel: string): string | undefined {
    return this.known.get(rel);
  }

  forget(rel: string): void {
    this.known.delete(rel);
  }

  /** The content before the current write: known snapshot, else the index/HEAD version, else ''. */
  async previous(rel: string): Promise<string> {
    const k = this.known.get(rel);
    if (k !== undefined) return k;
    if (this.readObject) {
      const blob = await this.readObject(`:${rel}`).catch(() => undefined);
      return blob ? blob.toString('utf8') : '';
    }
    const fromIndex = await this.git.tryRun(['show', `:${rel}`]);
    if (fromIndex !== undefined) return fromIndex;
    return '';
  }

  /**
   * The file on disk, synchronously (for the editor's change handler, which must classify a change
   * before the next one arrives): its text, null when it does not exist, undefined when it is not
   * captured (binary, too big, unreadable). Only called on the first change after a document was
   * opened, saved or reloaded, never per keystroke.
   */
  readCurrentSync(rel: string): string | undefined | null {
    const abs = path.join(this.root, rel);
    try {
      const st = statSync(abs);
      if (!st.isFile() || st.size > maxCapturedBytes) return undefined;
      const buf = readFileSync(abs);
      if (buf.subarray(0, 8000).includes(0)) return undefined;
      return buf.toString('utf8');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
    }
  }

  /** Reads the current file (undefined = deleted/unreadable/binary/too big → not captured). */
  async readCurrent(rel: string): Promise<string | undefined | null> {
    const abs = path.join(this.root, rel);
    try {
      const st = await fs.stat(abs);
      if (!st.isFile() || st.size > maxCapturedBytes) return undefined;
      const buf = await fs.readFile(abs);
      if (buf.subarray(0, 8000).includes(0)) return undefined;
      return buf.toString('utf8');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
    }
  }
}
