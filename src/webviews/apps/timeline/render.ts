/**
 * Pure rendering of the Timeline app: (view model, UI state, strings) → HTML strings.
 * Every value from the state is escaped; the DOM wiring lives in main.ts.
 */
import { timelineDefaultStrings, type TimelineStringKey, type TimelineUiState } from '../../timeline/protocol';
import { agentClass, escapeHtml, label, ratioBar } from '../shared/html';
import type { TimeFormat } from '../shared/time';
import type { TimelineRow, TimelineView } from './state';

export type Strings = Record<string, string>;

function t(strings: Strings, key: TimelineStringKey, ...args: (string | number)[]): string {
  return label(strings, timelineDefaultStrings, key, ...args);
}

/** DOM id of a row element (ids from the host may hold any character, so they are encoded). */
export function rowDomId(index: number): string {
  return `row-${index}`;
}

/** The filter bar: agent chips, session select, file select, text box, clear button. */
export function renderToolbar(view: TimelineView, ui: TimelineUiState, strings: Strings, fmt: TimeFormat): string {
  const chips = view.agents
    .map((a) => {
      const pressed = ui.filters.agents.includes(a);
      return `<button type="button" class="chip ${agentClass(a)}" data-agent="${escapeHtml(a)}" aria-pressed="${pressed}"><span class="dot" aria-hidden="true"></span>${escapeHtml(nameOf(view, a))}</button>`;
    })
    .join('');
  const sessionOptions = view.sessions
    .map((s) => {
      const text = [nameOf(view, s.agent), s.model ?? '', s.sessionId.slice(0, 8), fmt.dateTime(s.lastActivityAt)]
        .filter(Boolean)
        .join(' · ');
      return `<option value="${escapeHtml(s.key)}"${ui.filters.sessionKey === s.key ? ' selected' : ''}>${escapeHtml(text)}</option>`;
    })
    .join('');
  // A persisted selection that no longer exists stays selectable so the user sees why the list is empty.
  const orphanSession =
    ui.filters.sessionKey !== null && !view.sessions.some((s) => s.key === ui.filters.sessionKey)
      ? `<option value="${escapeHtml(ui.filters.sessionKey)}" selected>${escapeHtml(ui.filters.sessionKey)}</option>`
      : '';
  const files = ui.filters.file !== null && !view.files.includes(ui.filters.file) ? [...view.files, ui.filters.file] : view.files;
  const fileOptions = files
    .map((f) => `<option value="${escapeHtml(f)}"${ui.filters.file === f ? ' selected' : ''}>${escapeHtml(f)}</option>`)
    .join('');
  return [
    `<div class="filters" role="search">`,
    `<input type="search" id="text-filter" class="text-filter" value="${escapeHtml(ui.filters.text)}" placeholder="${escapeHtml(t(strings, 'filterPlaceholder'))}" aria-label="${escapeHtml(t(strings, 'filterLabel'))}" aria-keyshortcuts="/" spellcheck="false" autocomplete="off">`,
    view.agents.length ? `<div class="chips" role="group" aria-label="${escapeHtml(t(strings, 'agentsLabel'))}">${chips}</div>` : '',
    `<select id="session-filter" aria-label="${escapeHtml(t(strings, 'sessionLabel'))}"><option value="">${escapeHtml(t(strings, 'allSessions'))}</option>${sessionOptions}${orphanSession}</select>`,
    `<select id="file-filter" aria-label="${escapeHtml(t(strings, 'fileLabel'))}"><option value="">${escapeHtml(t(strings, 'allFiles'))}</option>${fileOptions}</select>`,
    // Always present (hidden when idle) so typing in the text box can toggle it without a re-render.
    `<button type="button" id="clear-filters" class="link-button"${view.filtersActive ? '' : ' hidden'}>${escapeHtml(t(strings, 'clearFilters'))}</button>`,
    `</div>`,
  ].join('');
}

function timeTag(iso: string, fmt: TimeFormat): string {
  return `<time class="time" datetime="${escapeHtml(iso)}">${escapeHtml(fmt.time(iso))}</time>`;
}

function nameOf(view: Pick<TimelineView, 'agentNames'>, agent: string): string {
  return Object.prototype.hasOwnProperty.call(view.agentNames, agent) ? view.agentNames[agent] : agent;
}

function renderRowBody(row: TimelineRow, view: TimelineView, ui: TimelineUiState, strings: Strings, fmt: TimeFormat): string {
  switch (row.kind) {
    case 'session': {
      const s = row.session;
      return [
        `<span class="marker" aria-hidden="true"></span>`,
        `<span class="main"><span class="kind">${escapeHtml(t(strings, 'sessionStarted'))}</span> `,
        `<span class="agent-name">${escapeHtml(nameOf(view, s.agent))}</span>`,
        s.model ? ` <span class="model">${escapeHtml(s.model)}</span>` : '',
        ` <code class="session-id" title="${escapeHtml(s.sessionId)}">${escapeHtml(s.sessionId.slice(0, 8))}</code>`,
        s.active ? ` <span class="badge active">${escapeHtml(t(strings, 'active'))}</span>` : '',
        `</span>`,
        timeTag(row.time, fmt),
      ].join('');
    }
    case 'prompt': {
      const e = row.entry;
      const expanded = ui.expanded.includes(row.id);
      const details = expanded
        ? `<div class="details"><div class="prompt-full">${escapeHtml(e.text)}</div>` +
          (e.response
            ? `<div class="response"><span class="label">${escapeHtml(t(strings, 'response'))}</span> ${escapeHtml(e.response)}</div>`
            : '') +
          `</div>`
        : '';
      return [
        `<span class="marker" aria-hidden="true"></span>`,
        `<span class="main"><span class="twisty" aria-hidden="true">${expanded ? '▾' : '▸'}</span> `,
        `<span class="kind">${escapeHtml(t(strings, 'prompt'))}</span> `,
        `<span class="first-line">${escapeHtml(e.firstLine)}</span> `,
        `<span class="turn">${escapeHtml(t(strings, 'turn', e.turn))}</span>`,
        `<span class="visually-hidden">, ${escapeHtml(t(strings, expanded ? 'collapse' : 'expand'))}</span>`,
        `</span>`,
        timeTag(row.time, fmt),
        details,
      ].join('');
    }
    case 'edit': {
      const e = row.entry;
      const origin = e.origin === 'ai' ? t(strings, 'ai') : t(strings, 'human');
      return [
        `<span class="marker" aria-hidden="true"></span>`,
        `<span class="main"><span class="kind">${escapeHtml(t(strings, 'edit'))}</span> `,
        `<span class="file">${escapeHtml(e.file)}</span> `,
        `<span class="added" aria-label="${escapeHtml(t(strings, 'added', e.added))}">+${e.added}</span> `,
        `<span class="removed" aria-label="${escapeHtml(t(strings, 'removed', e.removed))}">−${e.removed}</span> `,
        `<span class="badge origin-${e.origin}">${escapeHtml(origin)}</span>`,
        e.hasBlobs ? '' : ` <span class="muted">${escapeHtml(t(strings, 'noDiff'))}</span>`,
        `</span>`,
        timeTag(row.time, fmt),
      ].join('');
    }
    case 'commit': {
      const e = row.entry;
      const summary =
        e.noted && e.aiRatio !== null
          ? `${ratioBar(e.aiRatio, t(strings, 'aiRatio', e.aiRatio))} <span class="ratio-text">${escapeHtml(t(strings, 'aiRatio', e.aiRatio))}</span>` +
            (e.method ? ` <span class="muted">${escapeHtml(t(strings, 'method', e.method))}</span>` : '') +
            (e.agent ? ` <span class="agent-name">${escapeHtml(nameOf(view, e.agent))}</span>` : '')
          : e.noted && e.noteError
            ? `<span class="muted note-error">${escapeHtml(t(strings, 'noteNotRead', e.noteError))}</span>`
            : `<span class="muted">${escapeHtml(t(strings, 'noNote'))}</span>`;
      return [
        `<span class="marker" aria-hidden="true"></span>`,
        `<span class="main"><span class="kind">${escapeHtml(t(strings, 'commit'))}</span> `,
        `<code class="sha">${escapeHtml(e.short)}</code> `,
        `<span class="subject">${escapeHtml(e.subject)}</span> `,
        `<span class="summary">${summary}</span>`,
        `</span>`,
        timeTag(row.time, fmt),
      ].join('');
    }
  }
}

/** The list: day groups of option rows with a roving tabindex, or the empty state. */
export function renderList(view: TimelineView, ui: TimelineUiState, strings: Strings, fmt: TimeFormat): string {
  if (view.empty === 'none') {
    return `<div class="empty" role="status"><p>${escapeHtml(t(strings, 'empty'))}</p></div>`;
  }
  if (view.empty === 'noMatches') {
    return `<div class="empty" role="status"><p>${escapeHtml(t(strings, 'noMatches'))}</p><button type="button" id="empty-clear" class="link-button">${escapeHtml(t(strings, 'clearFilters'))}</button></div>`;
  }
  const out: string[] = [
    `<div id="timeline-list" class="list" role="listbox" aria-label="${escapeHtml(t(strings, 'listLabel'))}" aria-describedby="list-count">`,
  ];
  let day: string | undefined;
  view.rows.forEach((row, i) => {
    const key = fmt.dayKey(row.time);
    if (key !== day) {
      if (day !== undefined) out.push(`</div>`);
      day = key;
      const dayId = `day-${i}`;
      out.push(
        `<div role="group" class="day" aria-labelledby="${dayId}"><div class="day-label" id="${dayId}" role="presentation">${escapeHtml(fmt.dayLabel(row.time))}</div>`,
      );
    }
    const selected = row.id === view.selectedId;
    const classes = ['row', `row-${row.kind}`, agentClass(row.agent)];
    if (row.kind === 'edit') classes.push(`origin-${row.entry.origin}`);
    if (row.kind === 'commit' && !row.entry.noted) classes.push('unnoted');
    if (row.kind === 'prompt' && ui.expanded.includes(row.id)) classes.push('expanded');
    if (row.kind === 'session' && row.session.active) classes.push('active');
    out.push(
      `<div class="${classes.join(' ')}" role="option" id="${rowDomId(i)}" data-index="${i}" tabindex="${selected ? 0 : -1}" aria-selected="${selected}" aria-posinset="${i + 1}" aria-setsize="${view.rows.length}">`,
      renderRowBody(row, view, ui, strings, fmt),
      `</div>`,
    );
  });
  if (day !== undefined) out.push(`</div>`);
  out.push(`</div>`, `<div id="list-count" class="visually-hidden">${escapeHtml(t(strings, 'itemCount', view.rows.length))}</div>`);
  return out.join('');
}

/** What the app shows before the host answered `ready` (painted from the persisted UI state). */
export function renderLoading(strings: Strings): string {
  return `<div class="empty" role="status" aria-busy="true"><p>${escapeHtml(t(strings, 'loading'))}</p></div>`;
}
