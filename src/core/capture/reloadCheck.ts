import { normalizeEol } from './editMatcher';

/**
 * Is a change that left an open document clean (`isDirty === false`, no undo/redo reason) the editor
 * reloading it from disk, or an edit? VS Code reports `isDirty === false` for both: the reload after
 * the file changed on disk, and the FIRST edit after the document was opened, saved or reloaded (the
 * dirty flag follows in a second, empty event). A reload makes the buffer equal to the file on disk;
 * an edit does not. The comparison ignores a byte-order mark and line-ending style, which the editor
 * normalizes when it loads a file. A file that no longer exists (`null`) cannot have been reloaded: the
 * change is an edit. A file that is not captured at all (`undefined`: binary, over the capture size cap,
 * unreadable) is taken as reloaded, as before: its edits are not recorded either way, and a whole-file
 * reload must never become a "typed by the person" record.
 */
export function isReloadFromDisk(bufferText: string, diskText: string | null | undefined): boolean {
  if (diskText === undefined) return true;
  if (diskText === null) return false;
  if (bufferText === diskText) return true;
  const disk = diskText.charCodeAt(0) === 0xfeff ? diskText.slice(1) : diskText;
  return bufferText === disk || normalizeEol(bufferText) === normalizeEol(disk);
}
