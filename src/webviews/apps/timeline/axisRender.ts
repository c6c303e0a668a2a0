/**
 * Pure HTML of the Timeline v2 axis view: the filter bar, lane labels, accessible mark labels and
 * the selection details. Every value from the state is escaped (src/core/text/escape.ts).
 */
import type { TimelineLane, TimelineMark, TimelineModel } from '../../../core/timeline/timelineModel';
import { relatedMarks } from '../../../core/timeline/timelineModel';
import { timelineDefaultStrings, type TimelineAxisUiState, type TimelineStringKey, type TimelineUiState } from '../../timeline/protocol';
import { agentClass, escapeHtml, label } from '../shared/html';
import type { TimeFormat } from '../shared/time';

export type Strings = Record<string, string>;
export type AgentNames = Record<string, string>;

function t(strings: Strings, key: TimelineStringKey, ...args: (string | number)[]): string {
  return label(strings, timelineDefaultStrings, key, ...args);
}

function nameOf(names: AgentNames, agent: string): string {
  return Object.prototype.hasOwnProperty.call(names, agent) ? names[agent] : agent;
}

/** A lane's label: agent · model · short session id, or the human / commits lane. */
export function laneLabel(lane: TimelineLane, names: AgentNames, strings: Strings): string {
  if (lane.kind === 'human') return t(strings, 'humanLane');
  if (lane.kind === 'commits') return t(strings, 'commitLane');
  return [lane.agent ? nameOf(names, lane.agent) : '', lane.model ?? '', (lane.sessionId ?? '').slice(0, 8)].filter(Boolean).join(' · ');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The short text of a mark (its accessible name and tooltip). */
export function markText(m: TimelineMark, strings: Strings): string {
  const e = m.entry;
  switch (m.kind) {
    case 'session':
      return t(strings, 'sessionStart');
    case 'prompt':
      return e?.kind === 'prompt' ? `${t(strings, 'prompt')}: ${e.firstLine}` : t(strings, 'prompt');
    case 'edit':
    case 'uncommitted': {
      if (e?.kind !== 'edit') return t(strings, 'edit');
      const base = `${t(strings, 'edit')}: ${e.file} +${e.added} −${e.removed}`;
      return m.kind === 'uncommitted' ? `${base} (${t(strings, 'uncommitted')})` : base;
    }
    case 'commit':
      return e?.kind === 'commit' ? `${t(strings, 'commit')} ${e.short}: ${e.subject}` : t(strings, 'commit');
  }
}

/** Accessible name of a mark: its text and its time. */
export function markAriaLabel(m: TimelineMark, strings: Strings, fmt: TimeFormat): string {
  return `${markText(m, strings)}, ${fmt.dateTime(iso(m.t))}`;
}

/** The axis view's filter bar (agent chips and file select are the list's; branch and dates are the axis's). */
export function renderAxisToolbar(
  options: { agents: string[]; files: string[]; branches: string[] },
  ui: TimelineUiState,
  axis: TimelineAxisUiState,
  names: AgentNames,
  strings: Strings,
): string {
  const f = ui.filters;
  const chips = options.agents
    .map(
      (a) =>
        `<button type="button" class="chip ${agentClass(a)}" data-agent="${escapeHtml(a)}" aria-pressed="${f.agents.includes(a)}"><span class="dot" aria-hidden="true"></span>${escapeHtml(nameOf(names, a))}</button>`,
    )
    .join('');
  const files = f.file !== null && !options.files.includes(f.file) ? [...options.files, f.file] : options.files;
  const branches = axis.branch !== null && !options.branches.includes(axis.branch) ? [...options.branches, axis.branch] : options.branches;
  const opt = (value: string, selected: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(value)}</option>`;
  const active = f.agents.length > 0 || f.file !== null || axis.branch !== null || axis.from !== null || axis.to !== null;
  return [
    `<div class="filters" role="search">`,
    options.agents.length ? `<div class="chips" role="group" aria-label="${escapeHtml(t(strings, 'agentsLabel'))}">${chips}</div>` : '',
    `<select id="axis-file-filter" aria-label="${escapeHtml(t(strings, 'fileLabel'))}"><option value="">${escapeHtml(t(strings, 'allFiles'))}</option>${files.map((x) => opt(x, f.file === x)).join('')}</select>`,
    `<select id="axis-branch-filter" aria-label="${escapeHtml(t(strings, 'branchLabel'))}"><option value="">${escapeHtml(t(strings, 'allBranches'))}</option>${branches.map((x) => opt(x, axis.branch === x)).join('')}</select>`,
    `<label class="date">${escapeHtml(t(strings, 'fromLabel'))} <input type="date" id="axis-from" value="${escapeHtml(axis.from ?? '')}"></label>`,
    `<label class="date">${escapeHtml(t(strings, 'toLabel'))} <input type="date" id="axis-to" value="${escapeHtml(axis.to ?? '')}"></label>`,
    `<div class="zoom" role="group">`,
    `<button type="button" class="icon-button" data-zoom="out" title="${escapeHtml(t(strings, 'zoomOut'))}" aria-label="${escapeHtml(t(strings, 'zoomOut'))}"><span class="codicon codicon-zoom-out" aria-hidden="true"></span></button>`,
    `<button type="button" class="icon-button" data-zoom="in" title="${escapeHtml(t(strings, 'zoomIn'))}" aria-label="${escapeHtml(t(strings, 'zoomIn'))}"><span class="codicon codicon-zoom-in" aria-hidden="true"></span></button>`,
    `<button type="button" class="icon-button" data-zoom="fit" title="${escapeHtml(t(strings, 'zoomFit'))}" aria-label="${escapeHtml(t(strings, 'zoomFit'))}"><span class="codicon codicon-screen-normal" aria-hidden="true"></span></button>`,
    `</div>`,
    `<button type="button" id="axis-clear" class="link-button"${active ? '' : ' hidden'}>${escapeHtml(t(strings, 'clearFilters'))}</button>`,
    `</div>`,
  ].join('');
}

/** The switch between the time axis and the list (always shown above the filters). */
export function renderViewSwitch(axis: TimelineAxisUiState, strings: Strings): string {
  return [
    `<div class="segmented" role="group" aria-label="${escapeHtml(t(strings, 'viewLabel'))}">`,
    `<button type="button" data-view="axis" aria-pressed="${axis.view === 'axis'}">${escapeHtml(t(strings, 'viewAxis'))}</button>`,
    `<button type="button" data-view="list" aria-pressed="${axis.view === 'list'}">${escapeHtml(t(strings, 'viewList'))}</button>`,
    `</div>`,
  ].join('');
}

function fileButtons(files: string[]): string {
  return files
    .map((f) => `<li><button type="button" class="link-button file" data-open-file="${escapeHtml(f)}">${escapeHtml(f)}</button></li>`)
    .join('');
}

function commitLine(c: TimelineMark, strings: Strings): string {
  const e = c.entry;
  if (e?.kind !== 'commit') return '';
  const ratio = e.noted && e.aiRatio !== null ? ` <span class="badge">${escapeHtml(t(strings, 'aiRatio', e.aiRatio))}</span>` : '';
  return `<li><button type="button" class="link-button" data-select="${escapeHtml(c.id)}"><code class="sha">${escapeHtml(e.short)}</code> ${escapeHtml(e.subject)}</button>${ratio}</li>`;
}

/**
 * The selection's details: the prompt and response (escaped, line breaks kept), the files it
 * touched, the commit(s) it went into, and the commands that apply (Show Note, Open Diff, Reveal Line).
 */
export function renderDetails(model: TimelineModel, id: string | null, names: AgentNames, strings: Strings, fmt: TimeFormat): string {
  const i = id === null ? undefined : model.byId.get(id);
  if (i === undefined) return `<p class="muted">${escapeHtml(t(strings, 'noSelection'))}</p>`;
  const m = model.marks[i];
  const lane = model.lanes[m.lane];
  const rel = relatedMarks(model, m.id);
  const e = m.entry;
  const parts: string[] = [
    `<h2 class="details-title"><span class="kind kind-${m.kind}">${escapeHtml(markText(m, strings))}</span></h2>`,
    `<p class="details-meta ${agentClass(m.agent)}"><span class="dot" aria-hidden="true"></span>${escapeHtml(laneLabel(lane, names, strings))} · <time datetime="${escapeHtml(iso(m.t))}">${escapeHtml(fmt.dateTime(iso(m.t)))}</time></p>`,
  ];
  const prompt = e?.kind === 'prompt' ? e : rel.prompt?.entry?.kind === 'prompt' ? rel.prompt.entry : null;
  if (prompt) {
    parts.push(
      `<section class="prompt-block"><h3>${escapeHtml(t(strings, 'prompt'))}</h3><div class="prompt-full">${escapeHtml(prompt.text)}</div>`,
      prompt.response ? `<h3>${escapeHtml(t(strings, 'response'))}</h3><div class="response">${escapeHtml(prompt.response)}</div>` : '',
      `</section>`,
    );
  }
  if (m.files.length) parts.push(`<h3>${escapeHtml(t(strings, 'files'))}</h3><ul class="plain">${fileButtons(m.files)}</ul>`);
  if (m.kind !== 'commit' && m.kind !== 'session') {
    const status =
      rel.commits.length > 0
        ? `<ul class="plain">${rel.commits.map((c) => commitLine(c, strings)).join('')}</ul>`
        : `<p class="muted">${escapeHtml(t(strings, m.kind === 'uncommitted' ? 'notCommitted' : 'commitUnknown'))}</p>`;
    parts.push(`<h3>${escapeHtml(t(strings, 'committedIn'))}</h3>${status}`);
  }
  if (rel.edits.length) {
    parts.push(
      `<h3>${escapeHtml(t(strings, m.kind === 'commit' ? 'commitEdits' : 'ledTo'))}</h3><ul class="plain">${rel.edits
        .slice(0, 50)
        .map(
          (x) =>
            `<li><button type="button" class="link-button" data-select="${escapeHtml(x.id)}">${escapeHtml(markText(x, strings))}</button></li>`,
        )
        .join('')}</ul>`,
    );
  }
  const actions: string[] = [];
  const noteSha =
    e?.kind === 'commit'
      ? e.noted
        ? e.sha
        : null
      : rel.commits[0]?.entry?.kind === 'commit' && rel.commits[0].entry.noted
        ? rel.commits[0].entry.sha
        : null;
  if (noteSha)
    actions.push(
      `<button type="button" class="button" data-action="showNote" data-sha="${escapeHtml(noteSha)}" aria-keyshortcuts="N">${escapeHtml(t(strings, 'showNote'))}</button>`,
    );
  if (e?.kind === 'edit' && e.hasBlobs)
    actions.push(
      `<button type="button" class="button secondary" data-action="openDiff" aria-keyshortcuts="D">${escapeHtml(t(strings, 'openDiff'))}</button>`,
    );
  if (e?.kind === 'edit')
    actions.push(
      `<button type="button" class="button secondary" data-action="revealLine" aria-keyshortcuts="R">${escapeHtml(t(strings, 'revealLine'))}</button>`,
    );
  if (actions.length) parts.push(`<div class="actions">${actions.join('')}</div>`);
  return parts.join('');
}
