import * as path from 'node:path';
import { z } from 'zod';
import { normalizeAgentPath } from '../../core/agents/agentPath';
import type { TranscriptFs } from './transcriptFs';

/**
 * Which folders a VS Code workspace storage folder (`<User>/workspaceStorage/<id>/`) belongs to,
 * from its `workspace.json` (docs/transcripts.md §11.1): `{"folder": "file:///…"}` for a folder
 * window, `{"workspace": "file:///…/x.code-workspace"}` for a multi-root window (the workspace
 * file's `folders[]`, `path` relative to the file or `uri`). Only `file:` URIs count: a remote
 * window's folder is on another machine. Small reads only (64 KiB for `workspace.json`, 256 KiB
 * for a workspace file); anything unreadable or malformed gives no folder.
 */

const workspaceJson = z.object({ folder: z.string().optional(), workspace: z.string().optional() }).passthrough();
const codeWorkspace = z
  .object({ folders: z.array(z.object({ path: z.string().optional(), uri: z.string().optional() }).passthrough()).max(1000) })
  .passthrough();

/** The local path of a `file:` URI (undefined for other schemes). */
export function fileUriPath(uri: string): string | undefined {
  if (!/^file:\/\//i.test(uri)) return undefined;
  return normalizeAgentPath(uri);
}

/** The folders a `.code-workspace` text lists, absolute (relative paths against the file's folder). */
export function codeWorkspaceFolders(text: string, workspaceFile: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(stripJsonComments(text));
  } catch {
    return [];
  }
  const parsed = codeWorkspace.safeParse(value);
  if (!parsed.success) return [];
  const out: string[] = [];
  for (const f of parsed.data.folders) {
    const p =
      f.uri !== undefined ? fileUriPath(f.uri) : f.path !== undefined ? normalizeAgentPath(f.path, path.dirname(workspaceFile)) : undefined;
    if (p !== undefined) out.push(p);
  }
  return out;
}

/** The local folders of one workspace storage folder, or [] when it names none we can use. */
export async function workspaceStorageFolders(fs: TranscriptFs, wsDir: string): Promise<string[]> {
  let text: string;
  try {
    text = await fs.readSmallFile(path.join(wsDir, 'workspace.json'), 64 * 1024);
  } catch {
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = workspaceJson.safeParse(value);
  if (!parsed.success) return [];
  if (parsed.data.folder !== undefined) {
    const p = fileUriPath(parsed.data.folder);
    return p !== undefined ? [p] : [];
  }
  if (parsed.data.workspace !== undefined) {
    const file = fileUriPath(parsed.data.workspace);
    if (file === undefined) return [];
    try {
      return codeWorkspaceFolders(await fs.readSmallFile(file, 256 * 1024), file);
    } catch {
      return [];
    }
  }
  return [];
}

/** JSON with comments (`//`, `/* … *\/`) and trailing commas, as VS Code writes workspace files, to JSON. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
