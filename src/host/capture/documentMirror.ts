import type * as vscode from 'vscode';

/**
 * The text of an open document as of the last checkpoint plus the changes since, so the text
 * *before* any change can be rebuilt on demand. Typing only appends to `pending` (O(1) per
 * keystroke, no string copies); the text is materialized at checkpoints (bulk change, save, flush).
 */
export class DocumentMirror {
  private pending: (readonly vscode.TextDocumentContentChangeEvent[])[] = [];
  /** When the first not-yet-checkpointed change happened. */
  pendingSince: number | undefined;

  constructor(private base: string) {}

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Records a change batch without materializing. */
  push(changes: readonly vscode.TextDocumentContentChangeEvent[], now: number): void {
    if (this.pending.length === 0) this.pendingSince = now;
    this.pending.push(changes);
  }

  /** Text at the last checkpoint with all pending changes applied. */
  materialize(): string {
    let text = this.base;
    for (const batch of this.pending) text = applyChanges(text, batch);
    return text;
  }

  /** Base text (at the last checkpoint). */
  get checkpointText(): string {
    return this.base;
  }

  /** Makes `text` the new checkpoint and drops pending changes. */
  checkpoint(text: string): void {
    this.base = text;
    this.pending = [];
    this.pendingSince = undefined;
  }
}

/** Applies one change event's content changes (offsets refer to the text before the batch). */
export function applyChanges(text: string, changes: readonly vscode.TextDocumentContentChangeEvent[]): string {
  // VS Code reports the changes of one event against the pre-event text, non-overlapping;
  // apply from the end so earlier offsets stay valid.
  const sorted = [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset);
  let out = text;
  for (const c of sorted) out = out.slice(0, c.rangeOffset) + c.text + out.slice(c.rangeOffset + c.rangeLength);
  return out;
}
