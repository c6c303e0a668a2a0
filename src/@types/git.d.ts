// Subset of the built-in git extension's public API (vscode.git, API version 1), used only through
// `import type`. The full declaration lives in microsoft/vscode extensions/git/src/api/git.d.ts.
import type { Disposable, Event, Uri } from 'vscode';

export interface Branch {
  readonly type: number;
  readonly name?: string;
  readonly commit?: string;
  readonly remote?: string;
  readonly upstream?: { readonly name: string; readonly remote: string; readonly commit?: string };
  readonly ahead?: number;
  readonly behind?: number;
}

export interface Ref {
  readonly type: number;
  readonly name?: string;
  readonly commit?: string;
  readonly remote?: string;
}

export interface Remote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
  readonly isReadOnly: boolean;
}

export interface RepositoryState {
  readonly HEAD: Branch | undefined;
  readonly refs: Ref[];
  readonly remotes: Remote[];
  readonly rebaseCommit: { hash: string } | undefined;
  readonly onDidChange: Event<void>;
}

export interface Repository {
  readonly rootUri: Uri;
  readonly state: RepositoryState;
  readonly onDidCommit?: Event<void>;
  readonly onDidCheckout?: Event<void>;
}

export type APIState = 'uninitialized' | 'initialized';

export interface API {
  readonly state: APIState;
  readonly onDidChangeState: Event<APIState>;
  readonly git: { readonly path: string };
  readonly repositories: Repository[];
  readonly onDidOpenRepository: Event<Repository>;
  readonly onDidCloseRepository: Event<Repository>;
  getRepository(uri: Uri): Repository | null;
}

export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: Event<boolean>;
  getAPI(version: 1): API;
}

export type { Disposable };
