/**
 * Pure rendering of the Show Note app: (snapshot, time format) → HTML string. Renders the whole
 * note; every value from the note is escaped (prompts and responses are untrusted text).
 */
import type { NoteAiRange, NoteFile, NoteInteraction } from '../../../core/notes/noteTypes';
import { normalizeInteractionContexts } from '../../../core/notes/interactionContexts';
import { evaluatePrompt, type PromptLevel } from '../../../core/notes/promptScoring';
import { noteDefaultStrings, type NoteStringKey, type NoteUiState, type NoteViewState } from '../../note/protocol';
import { agentClass, clampRatio, escapeHtml, label, ratioBar } from '../shared/html';
import type { TimeFormat } from '../shared/time';

type Strings = Record<string, string>;

/** A product icon (@vscode/codicons, see shared/codicons.css); decorative, so hidden from screen readers. */
function icon(name: string): string {
  return `<span class="codicon codicon-${name}" aria-hidden="true"></span>`;
}

function t(strings: Strings, key: NoteStringKey, ...args: (string | number)[]): string {
  return label(strings, noteDefaultStrings, key, ...args);
}

/** No commit remembered, scrolled to the top. */
export function defaultNoteUiState(): NoteUiState {
  return { v: 1, sha: null, scrollTop: 0 };
}

/** Validate what `getState()` returned; anything unusable falls back to the default. */
export function parseNoteUiState(value: unknown): NoteUiState {
  const ui = defaultNoteUiState();
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== 1) return ui;
  const v = value as Record<string, unknown>;
  if (typeof v.sha === 'string') ui.sha = v.sha;
  if (typeof v.scrollTop === 'number' && Number.isFinite(v.scrollTop) && v.scrollTop >= 0) ui.scrollTop = v.scrollTop;
  return ui;
}

/** Render-time relevance of an interaction (recomputed from `selection`; never stored). */
export function interactionLevel(it: NoteInteraction): PromptLevel {
  return evaluatePrompt(it).level;
}

function levelLabel(strings: Strings, level: PromptLevel): string {
  return t(strings, level === 'high' ? 'levelHigh' : level === 'medium' ? 'levelMedium' : 'levelLow');
}

function fileButton(path: string, canOpen: boolean): string {
  return canOpen
    ? `<button type="button" class="link-button file-link" data-file="${escapeHtml(path)}"><code>${escapeHtml(path)}</code></button>`
    : `<code>${escapeHtml(path)}</code>`;
}

function renderHeader(s: NoteViewState, fmt: TimeFormat): string {
  const { commit, note, strings } = s;
  const meta: [string, string][] = [];
  if (commit.author) meta.push([t(strings, 'author'), escapeHtml(commit.author)]);
  if (commit.date)
    meta.push([t(strings, 'date'), `<time datetime="${escapeHtml(commit.date)}">${escapeHtml(fmt.dateTime(commit.date))}</time>`]);
  if (note?.agent)
    meta.push([
      t(strings, 'agent'),
      `<span class="agent ${agentClass(note.agent)}"><span class="dot" aria-hidden="true"></span>${escapeHtml(note.agent)}</span>`,
    ]);
  if (note?.model) meta.push([t(strings, 'model'), `<code>${escapeHtml(note.model)}</code>`]);
  if (note?.session_id) meta.push([t(strings, 'session'), `<code>${escapeHtml(note.session_id)}</code>`]);
  if (note?.timestamp)
    meta.push([
      t(strings, 'recorded'),
      `<time datetime="${escapeHtml(note.timestamp)}">${escapeHtml(fmt.dateTime(note.timestamp))}</time>`,
    ]);
  const sources = Array.isArray(note?.derived_from) ? note.derived_from.filter((c): c is string => typeof c === 'string') : [];
  if (sources.length)
    meta.push([
      t(strings, 'derivedFrom'),
      `<span title="${escapeHtml(t(strings, 'derivedFromHint'))}">${sources.map((c) => `<code class="sha" title="${escapeHtml(c)}">${escapeHtml(c.slice(0, 8))}</code>`).join(', ')}</span>`,
    ]);
  return [
    `<header class="note-header">`,
    `<h1><code class="sha" title="${escapeHtml(commit.sha)}">${escapeHtml(commit.short)}</code> <span class="subject">${escapeHtml(commit.subject)}</span></h1>`,
    meta.length ? `<dl class="meta">${meta.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>` : '',
    `</header>`,
  ].join('');
}

function renderActions(s: NoteViewState): string {
  const buttons: string[] = [];
  const hasJson = s.raw !== undefined || s.note !== undefined;
  if (hasJson) buttons.push(`<button type="button" data-command="copyJson">${escapeHtml(t(s.strings, 'copyJson'))}</button>`);
  if (s.note && s.invalidReason === undefined)
    buttons.push(`<button type="button" data-command="copyMarkdown">${escapeHtml(t(s.strings, 'copyMarkdown'))}</button>`);
  if (s.capabilities.openInTimeline)
    buttons.push(
      `<button type="button" class="secondary" data-command="openInTimeline">${escapeHtml(t(s.strings, 'openInTimeline'))}</button>`,
    );
  return buttons.length ? `<div class="actions">${buttons.join('')}</div>` : '';
}

function renderRatio(s: NoteViewState): string {
  const note = s.note;
  if (!note) return '';
  const a = note.attribution;
  const r = clampRatio(a.ai_ratio);
  const parts = [
    `<span class="ratio-text">${escapeHtml(t(s.strings, 'aiRatio', r))}</span>`,
    `<span class="muted">${escapeHtml(t(s.strings, 'method', a.method))}</span>`,
  ];
  if (a.lines) {
    parts.push(`<span>${escapeHtml(t(s.strings, 'lines', a.lines.ai_added, a.lines.total_added))}</span>`);
    parts.push(`<span class="muted">${escapeHtml(t(s.strings, 'deleted', a.lines.deleted))}</span>`);
  }
  return `<section class="ratio ${agentClass(note.agent)}" aria-label="${escapeHtml(t(s.strings, 'aiRatioLabel'))}">${ratioBar(r, t(s.strings, 'aiRatio', r), 'large')}<div class="ratio-facts">${parts.join(' · ')}</div></section>`;
}

function renderInteraction(it: NoteInteraction, index: number, s: NoteViewState): string {
  const strings = s.strings;
  const level = interactionLevel(it);
  const titleId = `prompt-${index}`;
  const out: string[] = [`<article class="interaction level-${level}" aria-labelledby="${titleId}">`];
  out.push(
    `<header><h3 id="${titleId}">${escapeHtml(t(strings, 'prompt', index + 1))}</h3>`,
    it.selection
      ? ` <span class="badge level-badge" title="${escapeHtml(t(strings, 'level'))}">${escapeHtml(levelLabel(strings, level))}</span>`
      : '',
    it.selection ? ` <span class="badge source-badge">${escapeHtml(it.selection.source)}</span>` : '',
    `</header>`,
  );
  for (const c of normalizeInteractionContexts(it)) {
    out.push(
      `<div class="context"><div class="label">${icon('note')} ${escapeHtml(t(strings, 'context'))} <span class="muted">${escapeHtml(c.kind)}</span></div><div class="text">${escapeHtml(c.text)}</div></div>`,
    );
  }
  out.push(`<div class="prompt">${escapeHtml(it.prompt)}</div>`);
  if (typeof it.response === 'string' && it.response !== '') {
    out.push(
      `<div class="response"><div class="label">${icon('hubot')} ${escapeHtml(t(strings, 'response'))}</div><div class="text">${escapeHtml(it.response)}</div></div>`,
    );
  } else {
    out.push(`<p class="muted no-response">${escapeHtml(t(strings, 'noResponse'))}</p>`);
  }
  const facts: string[] = [];
  if (it.files_touched?.length) {
    facts.push(
      `<dt>${escapeHtml(t(strings, 'filesTouched'))}</dt><dd>${it.files_touched.map((f) => fileButton(f, s.capabilities.openFile)).join(' ')}</dd>`,
    );
  }
  if (it.tools?.length)
    facts.push(
      `<dt>${escapeHtml(t(strings, 'tools'))}</dt><dd>${it.tools.map((tool) => `<span class="tool">${escapeHtml(tool)}</span>`).join(' ')}</dd>`,
    );
  if (it.selection) {
    facts.push(
      `<dt>${escapeHtml(t(strings, 'selection'))}</dt><dd>${escapeHtml(it.selection.source)}` +
        (it.selection.signals.length
          ? ` — <span class="signals">${it.selection.signals.map((sig) => `<code>${escapeHtml(sig)}</code>`).join(' ')}</span>`
          : '') +
        `</dd>`,
    );
  }
  if (facts.length) out.push(`<dl class="facts">${facts.join('')}</dl>`);
  out.push(`</article>`);
  return out.join('');
}

function formatRanges(ranges: readonly NoteAiRange[], strings: Strings): string {
  return ranges
    .map((r) => {
      const span = r.start === r.end ? String(r.start) : `${r.start}–${r.end}`;
      return r.interaction !== null ? `${span} (${t(strings, 'promptRef', r.interaction + 1)})` : span;
    })
    .join(', ');
}

function renderFiles(files: readonly NoteFile[], s: NoteViewState): string {
  const strings = s.strings;
  const head = `<h2>${escapeHtml(t(strings, 'files', files.length))}</h2>`;
  if (files.length === 0) return `<section class="files">${head}<p class="muted">${escapeHtml(t(strings, 'noFiles'))}</p></section>`;
  const rows = files.map((f) => {
    const by = f.by_ai
      ? `<span class="badge by-ai">${escapeHtml(t(strings, 'ai'))}</span>`
      : `<span class="badge by-human">${escapeHtml(t(strings, 'human'))}</span>`;
    return [
      `<tr>`,
      `<th scope="row">${fileButton(f.path, s.capabilities.openFile)}</th>`,
      `<td>${by}</td>`,
      `<td>${f.generated ? escapeHtml(t(strings, 'yes')) : ''}</td>`,
      `<td>${f.ai_ratio_excluded ? escapeHtml(t(strings, 'yes')) : ''}</td>`,
      `<td>${escapeHtml(formatRanges(f.ai_ranges ?? [], strings))}</td>`,
      `</tr>`,
    ].join('');
  });
  const cols = ['file', 'by', 'generated', 'excluded', 'aiLines'] as const;
  return [
    `<section class="files">${head}<table>`,
    `<thead><tr>${cols.map((c) => `<th scope="col">${escapeHtml(t(strings, c))}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody></table></section>`,
  ].join('');
}

/** The whole view for a snapshot. */
export function renderNoteView(s: NoteViewState, fmt: TimeFormat): string {
  const out: string[] = [renderHeader(s, fmt)];
  if (s.redactions && s.redactions > 0) {
    const text = s.redactions === 1 ? t(s.strings, 'redactedOne') : t(s.strings, 'redactedMany', s.redactions);
    out.push(`<p class="redactions" role="note">${icon('lock')} ${escapeHtml(text)}</p>`);
  }
  out.push(renderActions(s));
  if (s.invalidReason !== undefined) {
    out.push(
      `<section class="invalid" role="alert"><h2>${escapeHtml(t(s.strings, 'invalidTitle'))}</h2>`,
      `<p>${escapeHtml(t(s.strings, 'invalidReason', s.invalidReason))}</p>`,
      s.raw !== undefined ? `<h3>${escapeHtml(t(s.strings, 'rawNote'))}</h3><pre class="raw">${escapeHtml(s.raw)}</pre>` : '',
      `</section>`,
    );
    return out.join('');
  }
  const note = s.note;
  if (!note) {
    out.push(`<p class="empty">${escapeHtml(t(s.strings, 'noNote'))}</p>`);
    return out.join('');
  }
  out.push(renderRatio(s));
  out.push(`<section class="interactions"><h2>${escapeHtml(t(s.strings, 'prompts', note.interactions.length))}</h2>`);
  if (note.interactions.length === 0) out.push(`<p class="muted">${escapeHtml(t(s.strings, 'noPrompts'))}</p>`);
  note.interactions.forEach((it, i) => out.push(renderInteraction(it, i, s)));
  out.push(`</section>`);
  out.push(renderFiles(note.files, s));
  return out.join('');
}

/** What the app shows before the host answered `ready`. */
export function renderNoteLoading(strings: Strings): string {
  return `<p class="loading" role="status" aria-busy="true">${escapeHtml(t(strings, 'loading'))}</p>`;
}
