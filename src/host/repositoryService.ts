import * as vscode from 'vscode';
import type { Repository } from '../@types/git';
import type { Logger } from '../core/ports';
import { GitRunner } from '../node/git/gitRunner';

export interface HeadMove {
  previous: string | undefined;
  current: string;
  branch: string | undefined;
}

/**
 * Everything Agent Note does for one git repository. Created only for repositories reported by
 * the git extension (never for plain folders); disposed when the repository closes.
 */
export class RepositoryService implements vscode.Disposable {
  readonly root: string;
  readonly git: GitRunner;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly headEmitter = new vscode.EventEmitter<HeadMove>();
  private head: string | undefined;

  /** HEAD moved (commit, amend, checkout, reset, rebase, pull…), from any source. */
  readonly onDidMoveHead = this.headEmitter.event;

  constructor(
    readonly repository: Repository,
    readonly log: Logger,
    gitPath: string | undefined,
  ) {
    this.root = repository.rootUri.fsPath;
    this.git = new GitRunner(this.root, { gitPath, log });
    this.head = repository.state.HEAD?.commit;
    this.disposables.push(this.headEmitter, repository.state.onDidChange(() => this.onStateChange()));
  }

  get headCommit(): string | undefined {
    return this.head;
  }

  get branch(): string | undefined {
    return this.repository.state.HEAD?.name;
  }

  private onStateChange(): void {
    const current = this.repository.state.HEAD?.commit;
    if (!current || current === this.head) return;
    const previous = this.head;
    this.head = current;
    this.headEmitter.fire({ previous, current, branch: this.repository.state.HEAD?.name });
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
