import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentClaim } from '../../core/capture/editCapture';
import { agentIds, type AgentEvent, type EditEvent } from '../../core/model/agentEvents';
import type { RedactFn } from '../../core/notes/noteBuilder';
import type { Clock, Counters, Logger } from '../../core/ports';
import type { SessionModel, SessionTurn } from '../../core/session/sessionModel';
import { heartbeatTtlMs, type SessionJournal } from '../journal/sessionJournal';
import type { AppliedKeys } from './appliedKeys';
import { freshExtIndex, type ExtIndex, type LiveSession, type LiveSessions } from './liveSession';
import { errorText, exists, sha1, type JournalGeneration } from './recorderUtil';
import { extFiles, readPromptExt, type ActivityRecord, type PromptExtRecord } from './sessionSnapshot';
import { isInsideDir, repoRelativePath } from '../../core/git/repoPath';
import { hostPathRules } from '../util/hostPaths';

/** One tailer item: a transcript event with its stable key. */
export interface TranscriptItem {
  event: AgentEvent;
  key: string;
  transcriptPath?: string;
  fileTimeMs?: number;
}

export interface TranscriptRecorderDeps {
  /** Work tree root. */
  root: string;
  journal: SessionJournal;
  sessions: SessionModel;
  keys: AppliedKeys;
  live: LiveSessions;
  generation: JournalGeneration;
  /** Where the claims of agent edits go (edit capture). */
  claims: { addClaims(claims: readonly AgentClaim[]): Promise<void> };
  clock: Clock;
  log: Logger;
  counters: Counters;
  redact?: RedactFn;
  maxClaimAgeMs: number;
}

interface BatchContext {
  touched: Map<LiveSession, { maxTime: number }>;
  claims: AgentClaim[];
}

/**
 * Transcript events → the SessionModel (UI) and the CLI-compatible session journal
 * (`<git-dir>/agentnote/sessions/<id>/`: agent, transcript_path, heartbeat, rotation + turn +
 * prompt_id per prompt, events.jsonl session_start/prompt/response, our `ext/activity.jsonl` and
 * `ext/prompts.jsonl`), so the Agent Note CLI and we read the same data. The model's turn numbers
 * equal the journal's: before each new prompt the model's numbering is raised to the journal's
 * `turn` (SessionModel.reserveTurns); re-read events are dropped by their tailer keys
 * (AppliedKeys, persisted). Agent edit records become claims for edit capture. Prompt and
 * response text is redacted before it is journaled.
 */
export class TranscriptRecorder {
  private readonly roots: string[];

  constructor(private readonly d: TranscriptRecorderDeps) {
    let real = d.root;
    try {
      real = realpathSync(d.root);
    } catch {
      /* keep the given root */
    }
    this.roots = [...new Set([d.root, real])];
  }

  /** Forgets a session removed by the journal retention. */
  forget(sessionId: string): void {
    for (const a of agentIds) {
      this.d.live.delete(`${a}:${sessionId}`);
      this.d.sessions.remove(a, sessionId);
    }
  }

  /** A batch of transcript events (in transcript order) from the tailer. */
  async applyBatch(batch: readonly TranscriptItem[]): Promise<void> {
    const { counters, keys } = this.d;
    const ctx: BatchContext = { touched: new Map(), claims: [] };
    const ignoredBefore =
      counters.get('recorder.editsOutsideRepo') + counters.get('recorder.invalidSessionIds') + counters.get('recorder.eventFailures');
    for (const item of batch) {
      if (keys.has(item.key)) {
        counters.inc('recorder.duplicateEvents');
        continue;
      }
      try {
        await this.applyEvent(item.event, item.key, item.transcriptPath, ctx, item.fileTimeMs);
      } catch (e) {
        counters.inc('recorder.eventFailures');
        this.d.log.warn(`could not journal a ${item.event.kind} event: ${errorText(e)}`);
      }
      keys.add(item.key);
    }
    await this.d.claims.addClaims(ctx.claims);
    for (const [live, t] of ctx.touched) await this.finishSession(live, t.maxTime);
    await keys.save();
    const outside =
      counters.get('recorder.editsOutsideRepo') +
      counters.get('recorder.invalidSessionIds') +
      counters.get('recorder.eventFailures') -
      ignoredBefore;
    if (outside > 0) {
      this.d.log.info(
        `transcript records ignored: ${outside} of ${batch.length} (so far: ${counters.get('recorder.editsOutsideRepo')} edit(s) outside the repository, ${counters.get('recorder.invalidSessionIds')} unusable session id(s), ${counters.get('recorder.eventFailures')} failed)`,
      );
    }
  }

  private async applyEvent(
    event: AgentEvent,
    key: string,
    transcriptPath: string | undefined,
    ctx: BatchContext,
    fileTimeMs?: number,
  ): Promise<void> {
    const { sessions, clock } = this.d;
    const live = await this.liveSession(event, transcriptPath);
    // records without a timestamp (Cursor) take the transcript's modification time, not "now"
    const source = { key, ...(transcriptPath ? { transcriptPath } : {}), ...(fileTimeMs !== undefined ? { fileTimeMs } : {}) };
    const time = eventTime(event, fileTimeMs ?? clock.now());
    if (live) {
      const t = ctx.touched.get(live) ?? { maxTime: 0 };
      t.maxTime = Math.max(t.maxTime, time);
      ctx.touched.set(live, t);
    }
    if (
      live &&
      !live.modelJournaled &&
      'model' in event &&
      typeof event.model === 'string' &&
      event.model &&
      event.model !== '<synthetic>'
    ) {
      // Claude's model only appears on assistant records, after the session and its first prompt
      // were journaled without one: name it once with a session_start line, which is where the
      // CLI (and our note builder) look for the model first.
      live.modelJournaled = true;
      const known = (await live.js.readEvents()).entries.some((e) => 'model' in e && typeof e.model === 'string' && e.model);
      if (!known) {
        await live.js.appendEvent({
          event: 'session_start',
          session_id: live.id,
          timestamp: new Date(clock.now()).toISOString(),
          agent: live.agent,
          model: event.model,
        });
      }
    }
    switch (event.kind) {
      case 'prompt': {
        if (!live) {
          sessions.apply(event, source);
          return;
        }
        // locked across processes: a second window tailing the same transcript journals each prompt once
        await live.js.withLock(() => this.journalPrompt(event, key, live, source, time, transcriptPath));
        return;
      }
      case 'session': {
        sessions.apply(event, source);
        if (live && event.priorTurns !== undefined && event.priorTurns > 0) {
          const s = sessions.get(event.agent, event.sessionId);
          if (s && s.turns.every((t) => t.index === 0) && (await live.js.readTurn()) < event.priorTurns) {
            // a tailer resumed mid-transcript for a session the journal does not know (yet): number
            // the journal's next prompt after the transcript's earlier prompts, like the model
            await live.js.writeTurn(event.priorTurns);
          }
        }
        return;
      }
      case 'edit': {
        sessions.apply(event, source);
        if (!live) return;
        const turn = lastTurn(sessions.get(event.agent, event.sessionId))?.index ?? 0;
        const rel = this.relPath(event.file);
        const activity: ActivityRecord = { kind: 'edit', turn, tool: event.tool, file: rel ?? null, time };
        if (event.failed) activity.failed = true;
        await live.js.appendJsonl(extFiles.activity, activity);
        this.claimsFor(event, key, turn, time, ctx);
        return;
      }
      case 'tool': {
        sessions.apply(event, source);
        if (!live) return;
        const turn = lastTurn(sessions.get(event.agent, event.sessionId))?.index ?? 0;
        await live.js.appendJsonl(extFiles.activity, { kind: 'tool', turn, tool: event.tool, time } satisfies ActivityRecord);
        return;
      }
      default:
        sessions.apply(event, source);
    }
  }

  /**
   * Our prompt records of a live session by event key. Re-read only when the file's size is not
   * the one we left it at (a second window on this repository appended): one stat per prompt
   * instead of reading a file that grows with every turn.
   */
  private async promptExtIndex(live: LiveSession): Promise<ExtIndex<Map<string, PromptExtRecord>>> {
    live.promptExt = await freshExtIndex(
      live.js,
      extFiles.prompts,
      live.promptExt,
      async () => new Map((await readPromptExt(live.js)).map((r) => [r.key, r])),
    );
    return live.promptExt;
  }

  /** A prompt of a journaled session (called holding the session lock). */
  private async journalPrompt(
    event: Extract<AgentEvent, { kind: 'prompt' }>,
    key: string,
    live: LiveSession,
    source: { key: string; transcriptPath?: string; fileTimeMs?: number },
    time: number,
    transcriptPath: string | undefined,
  ): Promise<void> {
    const { sessions, counters } = this.d;
    const promptIndex = await this.promptExtIndex(live);
    const elsewhere = promptIndex.value.get(key);
    let journalTurn = elsewhere ? elsewhere.turn - 1 : await live.js.readTurn();
    const before = sessions.get(event.agent, event.sessionId);
    const modelTurn = lastTurn(before)?.index ?? 0;
    if (modelTurn > journalTurn && !elsewhere) {
      // the journal lost turns the model still has (session directory removed): catch up
      await live.js.writeTurn(modelTurn);
      journalTurn = modelTurn;
    }
    if (!before || before.turns.every((t) => t.index === 0)) {
      sessions.apply({ kind: 'session', agent: event.agent, sessionId: event.sessionId, priorTurns: journalTurn });
    } else sessions.reserveTurns(event.agent, event.sessionId, journalTurn);
    const last = lastTurn(sessions.get(event.agent, event.sessionId));
    sessions.apply(event, source);
    const now = lastTurn(sessions.get(event.agent, event.sessionId));
    if (!now || now === last || now.index <= 0) {
      counters.inc('recorder.promptUpserts');
      return;
    }
    if (elsewhere) {
      // another recorder (a second editor window on this repository) journaled this prompt
      live.promptIds.set(elsewhere.turn, elsewhere.promptId);
      counters.inc('recorder.promptsJournaledElsewhere');
      return;
    }
    const r = await live.js.recordPrompt({
      prompt: this.journalText(event.text),
      agent: live.agent,
      model: event.model ?? sessions.get(event.agent, event.sessionId)?.model ?? null,
      ...(transcriptPath ? { transcriptPath } : {}),
      setActive: this.d.clock.now() - time <= heartbeatTtlMs,
    });
    if (transcriptPath) live.transcriptPath ??= transcriptPath;
    if (r.turn !== now.index) {
      counters.inc('recorder.turnMismatch');
      this.d.log.warn(`session ${live.id.slice(0, 8)}: journal turn ${r.turn} ≠ model turn ${now.index} (another writer?)`);
    }
    live.promptIds.set(r.turn, r.promptId);
    const ext: PromptExtRecord = { key, turn: r.turn, promptId: r.promptId, time };
    if (event.recordId !== undefined) ext.recordId = event.recordId;
    await live.js.appendJsonl(extFiles.prompts, ext);
    promptIndex.value.set(key, ext);
    promptIndex.size = await live.js.extSize(extFiles.prompts);
    this.d.generation.bump();
  }

  /** The journal session of an event's session; first sight writes `agent`, `transcript_path` and session_start. */
  private async liveSession(event: AgentEvent, transcriptPath: string | undefined): Promise<LiveSession | undefined> {
    const k = `${event.agent}:${event.sessionId}`;
    let live = this.d.live.get(k);
    if (live === null) return undefined;
    if (!live) {
      const js = this.d.journal.session(event.sessionId);
      if (!js) {
        this.d.live.set(k, null);
        this.d.counters.inc('recorder.invalidSessionIds');
        return undefined;
      }
      live = { agent: event.agent, id: event.sessionId, js, promptIds: new Map(), lastResponse: new Map(), started: false, heartbeat: 0 };
      this.d.live.set(k, live);
    }
    if (!live.started) {
      live.started = true;
      const js = live.js;
      await js.ensureDir();
      live.heartbeat = (await js.readHeartbeat()) ?? 0;
      const existing = await js.readAgent();
      if (!existing) await js.writeAgent(live.agent);
      else if (existing !== live.agent) this.d.counters.inc('recorder.agentMismatch');
      if (!(await exists(path.join(js.dir, 'events.jsonl')))) {
        await js.appendEvent({
          event: 'session_start',
          session_id: live.id,
          timestamp: new Date(this.d.clock.now()).toISOString(),
          agent: live.agent,
          model: 'model' in event && typeof event.model === 'string' ? event.model : null,
        });
      }
      if (!live.promptIds.size)
        for (const p of (await js.readPrompts()).entries)
          if (p.prompt_id && !live.promptIds.has(p.turn)) live.promptIds.set(p.turn, p.prompt_id);
    }
    if (transcriptPath && !live.transcriptPath) {
      // the first transcript of a session is its main file; subagent files come later
      if (!(await live.js.readTranscriptPath())) await live.js.writeTranscriptPath(transcriptPath);
      live.transcriptPath = transcriptPath;
    }
    return live;
  }

  /** Claims for EditCapture from one agent edit (a move also claims the deletion of its source). */
  private claimsFor(event: EditEvent, key: string, turn: number, time: number, ctx: BatchContext): void {
    if (event.failed) return;
    const now = this.d.clock.now();
    if (now - Math.min(time, now) > this.d.maxClaimAgeMs) {
      this.d.counters.inc('recorder.staleEdits');
      return;
    }
    const rel = this.relPath(event.file);
    if (!rel) {
      this.d.counters.inc('recorder.editsOutsideRepo');
      return;
    }
    const interactionKey = `${event.agent}:${event.sessionId}:${turn}`;
    const base = { agent: event.agent, sessionId: event.sessionId, turn, interactionKey, receivedAt: now };
    ctx.claims.push({ ...base, key, file: rel, edit: event });
    if (event.movedFrom !== undefined) {
      const from = this.relPath(event.movedFrom);
      if (from && from !== rel) {
        const deletion: EditEvent = {
          kind: 'edit',
          agent: event.agent,
          sessionId: event.sessionId,
          file: event.movedFrom,
          tool: event.tool,
          deleted: true,
          ...(event.timestamp ? { timestamp: event.timestamp } : {}),
          ...(event.toolUseId ? { toolUseId: event.toolUseId } : {}),
        };
        ctx.claims.push({ ...base, key: `${key}#from`, file: from, edit: deletion });
      }
    }
  }

  /**
   * End of a batch for one session: heartbeat = the newest record time (so a transcript read long
   * after the fact does not look like a live session to the CLI's hooks), grown responses.
   */
  private async finishSession(live: LiveSession, maxTime: number): Promise<void> {
    try {
      live.heartbeat = Math.max(live.heartbeat, Math.min(maxTime, this.d.clock.now()));
      if (live.heartbeat > 0) await live.js.writeHeartbeat(live.heartbeat);
      const s = this.d.sessions.get(live.agent, live.id);
      if (!s) return;
      const lastIndex = s.turns.length > 0 ? s.turns[s.turns.length - 1].index : 0;
      for (const t of s.turns) {
        if (t.index <= 0 || t.index < lastIndex - 2 || t.compacted) continue;
        const raw = t.response;
        if (!raw) continue;
        const sources = (live.lastResponseSource ??= new Map());
        const rawDigest = sha1(raw);
        if (sources.get(t.index) === rawDigest) continue;
        const text = this.journalText(raw);
        sources.set(t.index, rawDigest);
        const digest = sha1(text);
        if (live.lastResponse.get(t.index) === digest) continue;
        await live.js.appendEvent({
          event: 'response',
          session_id: live.id,
          timestamp: new Date(this.d.clock.now()).toISOString(),
          turn: t.index,
          response: text,
        });
        live.lastResponse.set(t.index, digest);
      }
      // only the last turns can still grow: forget the older ones (memory stays flat over long sessions)
      for (const m of [live.lastResponse, live.lastResponseSource])
        for (const index of m?.keys() ?? []) if (index < lastIndex - 2) m?.delete(index);
    } catch (e) {
      this.d.counters.inc('recorder.eventFailures');
      this.d.log.warn(`could not update session ${live.id.slice(0, 8)}: ${errorText(e)}`);
    }
  }

  /** Prompt or response text as the journal stores it: redacted (the journal is what notes are built from). */
  private journalText(text: string): string {
    if (!this.d.redact || !text) return text;
    const r = this.d.redact(text);
    if (r.count > 0) this.d.counters.inc('recorder.journalRedactions', r.count);
    return r.text;
  }

  /** The repo-relative path of an absolute path in the work tree (also through its real path); undefined outside it or in `.git`. */
  relPath(abs: string): string | undefined {
    if (!abs) return undefined;
    for (const root of this.roots) {
      if (!isInsideDir(root, abs, hostPathRules)) continue;
      return repoRelativePath(root, abs, hostPathRules);
    }
    return undefined;
  }
}

function lastTurn(s: { turns: readonly SessionTurn[] } | undefined): SessionTurn | undefined {
  return s && s.turns.length > 0 ? s.turns[s.turns.length - 1] : undefined;
}

function eventTime(e: AgentEvent, fallback: number): number {
  const t = e.timestamp ? Date.parse(e.timestamp) : NaN;
  return Number.isFinite(t) ? t : fallback;
}
