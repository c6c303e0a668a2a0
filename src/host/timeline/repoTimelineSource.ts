import * as vscode from 'vscode';
import * as path from 'node:path';
import type { TimelineDataSource } from '../../webviews/timeline/timelineController';
import type { TimelineEntry, TimelineFocus, TimelineSession, TimelineState } from '../../webviews/timeline/protocol';
import { firstLine, cut } from '../../core/format/textFormat';
import { agentDefinitions } from '../../core/agents/registry/registry';
import type { RepositoryService } from '../repositoryService';
import { logCommits } from '../gitQueries';
import { BlobContentProvider } from '../blobContentProvider';
import { commands } from '../constants';
import { repoRelativePath } from '../../core/git/repoPath';
import { hostPathRules } from '../../node/util/hostPaths';
import { firstChangedLine } from '../../core/timeline/changedLine';

/** Timeline data of one repository: sessions and prompts (session model), edits (capture log), commits with notes. */
export class RepoTimelineSource implements TimelineDataSource {
  focus?: TimelineFocus;

  constructor(private readonly repo: RepositoryService) {}

  async getState(): Promise<TimelineState> {
    const repo = this.repo;
    const sessions: TimelineSession[] = [];
    const entries: TimelineEntry[] = [];
    for (const s of repo.recorder?.sessions.list() ?? []) {
      const started = s.turns[0]?.time ?? s.heartbeat;
      sessions.push({
        key: s.key,
        agent: s.agent,
        sessionId: s.id,
        model: s.model ?? null,
        startedAt: iso(started),
        lastActivityAt: iso(s.heartbeat),
        active: s.active,
      });
      for (const t of s.turns) {
        if (t.prompt === undefined) continue;
        entries.push({
          kind: 'prompt',
          id: `p:${s.key}:${t.index}`,
          time: iso(t.time),
          sessionKey: s.key,
          turn: t.index,
          firstLine: firstLine(t.prompt, 200),
          text: t.prompt,
          response: t.response ? cut(t.response, 600) : null,
        });
      }
    }
    const sessionKeyOf = (agent?: string, id?: string) =>
      agent && id ? (sessions.find((x) => x.agent === agent && x.sessionId === id)?.key ?? null) : null;
    for (const e of repo.recorder?.timelineEdits() ?? []) {
      if (e.origin === 'other') continue;
      entries.push({
        kind: 'edit',
        id: `e:${e.id}`,
        time: iso(e.time),
        sessionKey: e.origin === 'ai' ? sessionKeyOf(e.agent, e.sessionId) : null,
        turn: e.turn ?? null,
        file: e.file,
        added: e.added ?? 0,
        removed: e.removed ?? 0,
        origin: e.origin,
        hasBlobs: Boolean(e.preBlob && e.postBlob),
      });
    }
    const branch = repo.branch;
    const [commits, noted] = await Promise.all([logCommits(repo.git, 'HEAD', 100), repo.notes.listNotedCommits()]);
    for (const c of commits) {
      // one note at a time, each under the store's read limits; a note that cannot be read is shown with its reason
      let d: Awaited<ReturnType<typeof repo.notes.read>>;
      let readError: string | undefined;
      try {
        d = noted.has(c.sha) ? await repo.notes.read(c.sha) : undefined;
      } catch (e) {
        readError = e instanceof Error ? e.message : String(e);
      }
      const n = d?.kind === 'valid' ? d.note : undefined;
      const noteError = d?.kind === 'invalid' ? d.reason : readError;
      entries.push({
        kind: 'commit',
        id: `c:${c.sha}`,
        time: iso(c.time),
        sha: c.sha,
        short: c.short,
        subject: c.subject,
        aiRatio: n ? n.attribution.ai_ratio : null,
        method: n ? n.attribution.method : null,
        agent: n?.agent ?? null,
        noted: noted.has(c.sha),
        ...(noteError ? { noteError: cut(noteError, 200) } : {}),
        sessionKey: n ? sessionKeyOf(n.agent ?? undefined, n.session_id) : null,
        files: n?.files.slice(0, maxFilesPerCommit).map((f) => f.path),
        // the history shown is HEAD's: every commit of it is on the current branch
        ...(branch ? { branches: [branch] } : {}),
      });
    }
    return {
      repoName: path.basename(repo.root),
      sessions,
      entries,
      agents: agentDefinitions.map((d) => ({ id: d.id, name: d.displayName })),
      ...(branch ? { branch } : {}),
      ...(repo.headTime !== undefined ? { headTime: iso(repo.headTime) } : {}),
      strings: {},
    };
  }

  onDidChange(listener: () => void): { dispose(): unknown } {
    return vscode.Disposable.from(
      this.repo.onDidChangeSessions(listener),
      this.repo.onDidChangeNotes(listener),
      this.repo.onDidMoveHead(listener),
      // uncommitted work is live: a saved file of this repository may hold a new edit
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme === 'file' && repoRelativePath(this.repo.root, doc.uri.fsPath, hostPathRules)) listener();
      }),
    );
  }

  async openEditDiff(editId: string): Promise<void> {
    const id = editId.replace(/^e:/, '');
    const e = this.repo.recorder?.timelineEdits().find((x) => x.id === id);
    if (!e?.preBlob || !e.postBlob) throw new Error(vscode.l10n.t('No content was captured for this edit.'));
    const left = BlobContentProvider.uri(this.repo.root, e.preBlob, e.file);
    const right = BlobContentProvider.uri(this.repo.root, e.postBlob, e.file);
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      vscode.l10n.t('{0} (edit by {1})', e.file, e.origin === 'ai' ? (e.agent ?? 'AI') : vscode.l10n.t('you')),
    );
  }

  /** Open the edit's file at the edit: its uncommitted AI lines when they are still there, else the first changed line. */
  async revealEdit(editId: string): Promise<void> {
    const id = editId.replace(/^e:/, '');
    const e = this.repo.recorder?.timelineEdits().find((x) => x.id === id);
    if (!e) throw new Error(vscode.l10n.t('This edit is no longer recorded.'));
    const abs = path.join(this.repo.root, e.file);
    if (!repoRelativePath(this.repo.root, abs, hostPathRules)) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs));
    let line: number | undefined;
    if (e.origin === 'ai') {
      const ranges = (await this.repo.recorder?.uncommittedAi(e.file, doc.getText())) ?? [];
      line = (ranges.find((r) => r.interactionKey === e.interactionKey) ?? undefined)?.start;
    }
    if (line === undefined && e.preBlob && e.postBlob) {
      const [before, after] = await Promise.all([this.repo.blobs.read(e.preBlob), this.repo.blobs.read(e.postBlob)]);
      if (before && after) line = firstChangedLine(before.toString('utf8'), after.toString('utf8'));
    }
    const at = new vscode.Position(Math.max(0, Math.min(doc.lineCount - 1, (line ?? 1) - 1)), 0);
    await vscode.window.showTextDocument(doc, { preview: true, selection: new vscode.Range(at, at) });
  }

  async openNote(sha: string): Promise<void> {
    await vscode.commands.executeCommand(commands.showNote, { root: this.repo.root, sha });
  }

  async openFile(file: string): Promise<void> {
    const abs = path.join(this.repo.root, file);
    if (!repoRelativePath(this.repo.root, abs, hostPathRules)) return;
    await vscode.window.showTextDocument(vscode.Uri.file(abs), { preview: true });
  }
}

/** Paths of one commit sent to the webview (for its file filter). */
const maxFilesPerCommit = 500;

function iso(ms: number): string {
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}
