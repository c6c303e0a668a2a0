/** Show Note app entry: DOM wiring only; the HTML comes from render.ts. */
import '../shared/codicons.css';
import './note.css';
import {
  CopyJsonCommand,
  CopyMarkdownCommand,
  DidChangeNoteNotification,
  NoteReadyRequest,
  OpenInTimelineCommand,
  OpenNoteFileCommand,
  type NoteViewState,
} from '../../note/protocol';
import { createHostChannel } from '../shared/host';
import { localTimeFormat } from '../shared/time';
import { parseNoteUiState, renderNoteLoading, renderNoteView } from './render';

const host = createHostChannel();
const fmt = localTimeFormat(document.documentElement.lang || navigator.language);
const app = document.getElementById('app') ?? document.body;
let ui = parseNoteUiState(host.getState());
let state: NoteViewState | undefined;

function render(): void {
  if (!state) {
    app.innerHTML = renderNoteLoading({});
    return;
  }
  app.innerHTML = renderNoteView(state, fmt);
  // CSSOM writes are allowed under the CSP; inline style attributes are not.
  for (const el of app.querySelectorAll<HTMLElement>('[data-ratio]')) el.style.width = `${el.dataset.ratio ?? 0}%`;
}

function onState(next: NoteViewState): void {
  const sameCommit = ui.sha === next.commit.sha;
  state = next;
  render();
  document.title = `${next.commit.short} ${next.commit.subject}`;
  // Keep the scroll position across a reload of the same commit; a new commit starts at the top.
  document.scrollingElement?.scrollTo({ top: sameCommit ? ui.scrollTop : 0 });
  ui = { v: 1, sha: next.commit.sha, scrollTop: sameCommit ? ui.scrollTop : 0 };
  host.setState(ui);
}

app.addEventListener('click', (ev) => {
  const target = ev.target as HTMLElement;
  const command = target.closest<HTMLElement>('[data-command]')?.dataset.command;
  if (command === 'copyJson') host.sendCommand(CopyJsonCommand, undefined);
  else if (command === 'copyMarkdown') host.sendCommand(CopyMarkdownCommand, undefined);
  else if (command === 'openInTimeline') host.sendCommand(OpenInTimelineCommand, undefined);
  const file = target.closest<HTMLElement>('[data-file]')?.dataset.file;
  if (file) host.sendCommand(OpenNoteFileCommand, { path: file });
});

let frame = 0;
window.addEventListener('scroll', () => {
  if (frame || !state) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    ui = { ...ui, scrollTop: Math.round(document.scrollingElement?.scrollTop ?? 0) };
    host.setState(ui);
  });
});

host.onNotification(DidChangeNoteNotification, onState);
render();
host.sendRequest(NoteReadyRequest, undefined).then(onState, () => {
  app.innerHTML = renderNoteLoading({});
});
