/**
 * The hostile corpus through every surface that can be rendered outside the editor: the PR report
 * (GitHub Markdown), "Copy as Markdown", the Show Note and Timeline webviews (HTML). The editor
 * surfaces (hover, status bar, CodeLens, quick pick) are checked in a real host by
 * test/suite/hostile.
 */
import * as assert from 'node:assert/strict';
import { decodeNote, encodeNote } from '../../../src/core/notes/noteCodec';
import type { AgentNoteV1 } from '../../../src/core/notes/noteTypes';
import { buildPrReport } from '../../../src/core/report/prReport';
import { noteToMarkdown } from '../../../src/core/report/noteMarkdown';
import type { NoteViewState } from '../../../src/webviews/note/protocol';
import type { TimelineState } from '../../../src/webviews/timeline/protocol';
import { loadApp } from '../webviews/loadApp';
import { markdown } from '../text/markdownOracle';
import { allInOne, benignNote, forbiddenTags, hostileNote, hostileStrings } from './corpus';

type NoteRender = typeof import('../../../src/webviews/apps/note/render');
type TimelineRender = typeof import('../../../src/webviews/apps/timeline/render');
type TimelineStateModule = typeof import('../../../src/webviews/apps/timeline/state');
type TimeModule = typeof import('../../../src/webviews/apps/shared/time');
const noteApp = loadApp<NoteRender>('note/render');
const timelineApp = loadApp<TimelineRender>('timeline/render');
const timelineState = loadApp<TimelineStateModule>('timeline/state');
const { utcTimeFormat: fmt } = loadApp<TimeModule>('shared/time');

const corpus = { ...hostileStrings(), allInOne: allInOne() };
const sha = 'a76d22f2360e1089ab0cf0c0d4070c0a9276cafc';

/** The sequence of tags of an HTML string (`<div`, `</div`…): the document's structure. */
function tagStructure(html: string): string[] {
  return [...html.matchAll(/<\/?[a-zA-Z][a-zA-Z0-9-]*/g)].map((m) => m[0]);
}

/** Attribute values are quoted and escaped: no quote inside a value can end it. */
function assertAttributesClosed(html: string): void {
  for (const tag of html.match(/<[a-zA-Z][^>]*>/g) ?? []) {
    const rest = tag.replace(/\s[a-zA-Z-]+(?:="[^"<>]*")?(?=[\s>])/g, '').replace(/^<[a-zA-Z][a-zA-Z0-9-]*/, '');
    assert.match(rest, /^\s*\/?>$/, `unexpected attribute text in ${tag}`);
  }
}

/** A note that went through our own codec (what a reader gets from git). */
function roundTrip(note: AgentNoteV1): AgentNoteV1 {
  const d = decodeNote(encodeNote(note));
  assert.equal(d.kind, 'valid', d.kind === 'invalid' ? d.reason : '');
  return (d as { note: AgentNoteV1 }).note;
}

function prReportOf(note: AgentNoteV1, subject: string, repoUrl: string | null = null) {
  return buildPrReport(
    [
      { sha, short: 'a76d22f', subject, note },
      { sha: sha.replace(/a/g, 'b'), short: 'b76d22f', subject: 'plain second', noteError: `note too large ${subject}` },
    ],
    { base: 'main', repoUrl, promptDetail: 'full' },
  );
}

describe('hostile corpus × surfaces', () => {
  for (const [name, s] of Object.entries(corpus)) {
    describe(name, () => {
      const note = roundTrip(hostileNote(s));

      it('PR report: nothing leaves its <details>, its quotes or its table; no HTML, image or hidden link', () => {
        const { markdown: report } = prReportOf(note, s, 'https://github.com/acme/app');
        const html = markdown({ html: true, linkify: false }).render(report);
        // our own raw HTML: the reviewer comment, one <details> with one <summary>
        assert.equal((html.match(/<details>/g) ?? []).length, 1, html);
        assert.equal((html.match(/<\/details>/g) ?? []).length, 1, html);
        assert.equal((html.match(/<summary>/g) ?? []).length, 1, html);
        assert.ok(html.trimEnd().endsWith('</details>'), 'the prompts section ends the report, as raw HTML');
        const withoutOurs = html
          .replace(/<details>|<\/details>|<summary>[^<]*<\/summary>/g, '')
          .replace(/<!-- agentnote-reviewer-context[\s\S]*?-->/, '')
          .replace(/<a href="https:\/\/github\.com\/acme\/app\/commit\/[0-9a-f]+"><code>[0-9a-f]+<\/code><\/a>/g, '');
        assert.doesNotMatch(withoutOurs, forbiddenTags, withoutOurs);
        assert.doesNotMatch(withoutOurs, /<!--|-->/);
        // the reviewer comment is one comment
        const comment = /<!-- agentnote-reviewer-context[\s\S]*?-->/.exec(html)?.[0] ?? '';
        assert.ok(comment.length > 0);
        assert.equal(comment.indexOf('-->'), comment.length - 3, 'the comment ends only at its end');
        // the table has one row per commit, four cells each
        const table = /<table>[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
        assert.equal((table.match(/<tr>/g) ?? []).length, 3, table);
        assert.equal((table.match(/<td>/g) ?? []).length, 8, table);
        // the model is one code span
        assert.match(report, /^\*\*Model:\*\* `+[^\n]*`+$/m);
        // the unreadable note is named with its reason, on one line
        assert.match(report, /^_Notes not used: `b76d22f` \(note too large [^\n]*\)_$/m);
      });

      it('PR report JSON: the note data as stored, valid JSON', () => {
        const { json } = prReportOf(note, s);
        const text = JSON.stringify(json);
        assert.deepEqual(JSON.parse(text).commits[0].interactions[0].prompt, note.interactions[0].prompt);
      });

      it('Copy as Markdown: no HTML, image or hidden link; one heading per section', () => {
        const out = noteToMarkdown({ sha, short: 'a76d22f', subject: s, author: s, date: s }, note);
        const html = markdown({ html: true, linkify: false }).render(out);
        assert.doesNotMatch(html, forbiddenTags, html);
        assert.doesNotMatch(html, /<!--/);
        // the note's own text stays inside its block quotes; our headings are the only ones outside
        const outside = html.replace(/<blockquote>[\s\S]*?<\/blockquote>/g, '');
        assert.equal((outside.match(/<h2>/g) ?? []).length, 1, outside);
        assert.equal((outside.match(/<h[13-6]>/g) ?? []).length, 4, 'Prompts, Files and one per prompt');
        const table = /<table>[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
        assert.equal((table.match(/<tr>/g) ?? []).length, 3, table);
      });

      it('Show Note webview: the same HTML structure as for a harmless note, attributes closed', () => {
        const state = (n: AgentNoteV1, text: string): NoteViewState => ({
          commit: { sha, short: 'a76d22f', subject: text, author: text, date: '2026-03-03T04:10:19+00:00' },
          note: n,
          raw: encodeNote(n),
          redactions: 0,
          strings: {},
          capabilities: { openFile: true, openInTimeline: true },
        });
        const hostile = noteApp.renderNoteView(state(note, s), fmt);
        const benign = noteApp.renderNoteView(state(roundTrip(benignNote()), 'word'), fmt);
        assert.deepEqual(tagStructure(hostile), tagStructure(benign));
        assertAttributesClosed(hostile);
        // an invalid note's stored text is shown as text
        const invalid = noteApp.renderNoteView({ ...state(note, s), note: undefined, invalidReason: s, raw: s }, fmt);
        const invalidBenign = noteApp.renderNoteView({ ...state(note, 'word'), note: undefined, invalidReason: 'word', raw: 'word' }, fmt);
        assert.deepEqual(tagStructure(invalid), tagStructure(invalidBenign));
      });

      it('Timeline webview: the same HTML structure as for harmless text, attributes closed', () => {
        const stateOf = (text: string): TimelineState => ({
          repoName: text,
          strings: {},
          sessions: [
            {
              key: `k-${text}`,
              agent: text,
              sessionId: text,
              model: text,
              startedAt: '2026-03-03T04:00:00.000Z',
              lastActivityAt: '2026-03-03T04:10:00.000Z',
              active: true,
            },
          ],
          entries: [
            {
              kind: 'prompt',
              id: `p:${text}`,
              time: '2026-03-03T04:01:00.000Z',
              sessionKey: `k-${text}`,
              turn: 1,
              firstLine: text,
              text,
              response: text,
            },
            {
              kind: 'edit',
              id: `e:${text}`,
              time: '2026-03-03T04:02:00.000Z',
              sessionKey: `k-${text}`,
              turn: 1,
              file: text,
              added: 1,
              removed: 0,
              origin: 'ai',
              hasBlobs: true,
            },
            {
              kind: 'commit',
              id: `c:${sha}`,
              time: '2026-03-03T04:03:00.000Z',
              sha,
              short: 'a76d22f',
              subject: text,
              aiRatio: 50,
              method: 'line',
              agent: text,
              noted: true,
              sessionKey: `k-${text}`,
              files: [text],
            },
            {
              kind: 'commit',
              id: `c:${sha.replace(/a/g, 'c')}`,
              time: '2026-03-03T04:04:00.000Z',
              sha: sha.replace(/a/g, 'c'),
              short: 'c76d22f',
              subject: text,
              aiRatio: null,
              method: null,
              agent: null,
              noted: true,
              noteError: text,
              files: [],
            },
          ],
        });
        const render = (text: string) => {
          const st = stateOf(text);
          const ui = { ...timelineState.defaultTimelineUiState(), expanded: st.entries.map((e) => e.id) };
          const view = timelineState.buildTimelineView(st, ui);
          return timelineApp.renderToolbar(view, ui, {}, fmt) + timelineApp.renderList(view, ui, {}, fmt);
        };
        const hostile = render(s);
        assert.deepEqual(tagStructure(hostile), tagStructure(render('word')));
        assertAttributesClosed(hostile);
      });
    });
  }
});
