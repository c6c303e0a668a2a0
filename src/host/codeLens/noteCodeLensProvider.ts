import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { RepositoryRegistry } from '../repositoryRegistry';
import { lookupTarget, relPath } from '../hover/noteHoverProvider';
import { commands } from '../constants';
import { plainLabel } from '../../core/text/escape';

class NoteCodeLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly root: string,
    readonly sha: string,
  ) {
    super(range);
  }
}

/**
 * One lens per contiguous block of lines from the same noted commit, e.g.
 * `73% AI · 3 prompts · claude-sonnet-4 · a1b2c3d`. Ranges come from the (cached) whole-file
 * blame in provideCodeLenses; titles are built lazily in resolveCodeLens.
 */
export class NoteCodeLensProvider implements vscode.CodeLensProvider<NoteCodeLens>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private timer: NodeJS.Timeout | undefined;
  /** Lenses of the last clean (saved) state of each document, reused while it is being edited. */
  private readonly lastClean = new Map<string, { head: string; lineCount: number; lenses: NoteCodeLens[] }>();

  constructor(
    private readonly registry: RepositoryRegistry,
    private readonly log: Logger,
  ) {}

  /** Debounced refresh (a note was written, notes were fetched, HEAD moved). */
  refresh(): void {
    this.lastClean.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.emitter.fire(), 200);
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<NoteCodeLens[]> {
    if (document.uri.scheme !== 'file') return [];
    const repo = this.registry.forUri(document.uri);
    const head = repo?.headCommit;
    const rel = repo && relPath(repo.root, document.uri.fsPath);
    if (!repo || !head || !rel) return [];
    const key = document.uri.toString();
    if (document.isDirty) {
      // while typing, keep the lenses of the saved text if no line was added or removed (no git
      // process per pause in typing); otherwise they come back at the next save
      const last = this.lastClean.get(key);
      return last && last.head === head && last.lineCount === document.lineCount ? last.lenses : [];
    }
    try {
      const blocks = await repo.lookup.notedBlocks(lookupTarget(document, rel, head));
      if (token.isCancellationRequested) return [];
      const lenses = blocks
        .filter((b) => b.start - 1 < document.lineCount)
        .map((b) => new NoteCodeLens(new vscode.Range(b.start - 1, 0, b.start - 1, 0), repo.root, b.sha));
      this.lastClean.set(key, { head, lineCount: document.lineCount, lenses });
      if (this.lastClean.size > 50) this.lastClean.delete(this.lastClean.keys().next().value as string);
      return lenses;
    } catch (e) {
      this.log.debug(`codelens failed: ${String(e)}`);
      return [];
    }
  }

  async resolveCodeLens(lens: NoteCodeLens, token: vscode.CancellationToken): Promise<NoteCodeLens> {
    const repo = this.registry.all.find((r) => r.root === lens.root);
    let decoded: Awaited<ReturnType<NonNullable<typeof repo>['notes']['read']>>;
    try {
      decoded = await repo?.notes.read(lens.sha);
    } catch (e) {
      this.log.debug(`codelens note read failed: ${String(e)}`);
      decoded = undefined;
    }
    if (token.isCancellationRequested) return lens;
    const short = lens.sha.slice(0, 7);
    let title: string;
    if (decoded?.kind === 'valid') {
      const n = decoded.note;
      const parts = [vscode.l10n.t('{0}% AI', displayRatio(n.attribution.ai_ratio)), vscode.l10n.t('{0} prompts', n.interactions.length)];
      if (n.interactions.length === 1) parts[1] = vscode.l10n.t('1 prompt');
      // the model comes from the note: one line, no `$(icon)` syntax, bounded
      const model = n.model ? plainLabel(n.model, 60) : '';
      if (model) parts.push(model);
      parts.push(short);
      title = `$(sparkle) ${parts.join(' · ')}`;
    } else if (decoded?.kind === 'invalid' && decoded.violation?.kind === 'tooLarge') {
      title = `$(warning) ${vscode.l10n.t('Agent Note too large to read')} · ${short}`;
    } else {
      title = `$(warning) ${vscode.l10n.t('invalid Agent Note')} · ${short}`;
    }
    lens.command = {
      title,
      command: commands.showNote,
      arguments: [{ root: lens.root, sha: lens.sha }],
      tooltip: vscode.l10n.t('Show the Agent Note of {0}', short),
    };
    return lens;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.emitter.dispose();
  }
}

/** A note's ratio for display: an integer 0–100 whatever the note says. */
function displayRatio(ratio: number): number {
  return Number.isFinite(ratio) ? Math.max(0, Math.min(100, Math.round(ratio))) : 0;
}
