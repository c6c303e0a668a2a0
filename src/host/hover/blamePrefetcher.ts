import * as vscode from 'vscode';
import type { RepositoryRegistry } from '../repositoryRegistry';
import { lookupTarget, relPath } from './noteHoverProvider';

/**
 * Starts the blame of the file in the active editor as soon as it is shown (and again when HEAD
 * moves or its repository appears), so that the first hover in a file finds the streaming blame
 * already under way instead of starting it. One file at a time: only the active editor.
 */
export class BlamePrefetcher implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly registry: RepositoryRegistry) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((e) => this.prefetch(e)),
      registry.onDidOpen(() => this.refresh()),
    );
    this.refresh();
  }

  /** Prefetches for the active editor (HEAD moved, a repository opened). */
  refresh(): void {
    this.prefetch(vscode.window.activeTextEditor);
  }

  private prefetch(editor: vscode.TextEditor | undefined): void {
    const doc = editor?.document;
    if (!doc || doc.uri.scheme !== 'file') return;
    const repo = this.registry.forUri(doc.uri);
    const head = repo?.headCommit;
    const rel = repo && relPath(repo.root, doc.uri.fsPath);
    if (!repo || !head || !rel) return;
    repo.lookup.prefetch(lookupTarget(doc, rel, head));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
