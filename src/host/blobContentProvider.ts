import * as vscode from 'vscode';
import type { RepositoryRegistry } from './repositoryRegistry';
import { isObjectId } from '../core/git/objectId';

export const blobScheme = 'agentnote-blob';

/** `agentnote-blob:/<file>?{"root","blob"}` — read-only content of a captured pre/post blob (timeline diffs). */
export class BlobContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly registry: RepositoryRegistry) {}

  static uri(root: string, blob: string, file: string): vscode.Uri {
    return vscode.Uri.from({ scheme: blobScheme, path: `/${file}`, query: JSON.stringify({ root, blob }) });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    let query: { root?: unknown; blob?: unknown };
    try {
      query = JSON.parse(uri.query) as { root?: unknown; blob?: unknown };
    } catch {
      return '';
    }
    const { root, blob } = query;
    // any extension can open this scheme: only a full blob id of one of our repositories is read
    if (typeof root !== 'string' || typeof blob !== 'string' || !isObjectId(blob)) return '';
    const repo = this.registry.all.find((r) => r.root === root);
    const buf = await repo?.blobs.read(blob);
    return buf?.toString('utf8') ?? '';
  }
}
