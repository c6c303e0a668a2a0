import * as posix from 'node:path/posix';

/**
 * Path normalization for file paths found in transcripts (docs/transcripts.md §6.6): `file://`
 * URIs are decoded, `/c:/…` becomes `C:\…`, Windows drive letters are upper-cased and relative paths
 * are resolved against the record's cwd. POSIX paths keep forward slashes; Windows paths use `\`.
 * Returns undefined when the path is empty or relative without a usable cwd.
 */
export function normalizeAgentPath(raw: string, cwd?: string): string | undefined {
  let p = raw.trim();
  if (!p) return undefined;
  if (/^file:\/\//i.test(p)) {
    p = p.replace(/^file:\/\/(localhost)?/i, '');
    try {
      p = decodeURIComponent(p);
    } catch {
      // keep the undecoded path: a stray '%' is legal in a file name
    }
  }
  // `/c:/x` (hook payloads, URIs) → `c:/x`
  if (/^\/[A-Za-z]:[\\/]/.test(p)) p = p.slice(1);
  if (isWindowsAbsolute(p)) return normalizeWindows(p);
  if (p.startsWith('/')) return posix.normalize(p);
  if (p.startsWith('\\\\')) return p.replace(/\//g, '\\');
  if (!cwd) return undefined;
  const base = normalizeAgentPath(cwd);
  if (!base) return undefined;
  if (isWindowsAbsolute(base)) return normalizeWindows(`${base}\\${p}`);
  return posix.resolve(base, p);
}

function isWindowsAbsolute(p: string): boolean {
  return /^[A-Za-z]:([\\/]|$)/.test(p);
}

function normalizeWindows(p: string): string {
  const parts: string[] = [];
  const drive = p[0].toUpperCase() + ':';
  for (const seg of p.slice(2).split(/[\\/]+/)) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `${drive}\\${parts.join('\\')}`;
}
