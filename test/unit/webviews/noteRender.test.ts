import * as assert from 'node:assert/strict';
import type { NoteViewState } from '../../../src/webviews/note/protocol';
import { peerNote } from '../report/peerFixtures';
import { loadApp } from './loadApp';

type RenderModule = typeof import('../../../src/webviews/apps/note/render');
type TimeModule = typeof import('../../../src/webviews/apps/shared/time');
const R = loadApp<RenderModule>('note/render');
const { utcTimeFormat: fmt } = loadApp<TimeModule>('shared/time');

const commit = {
  sha: 'a76d22f2360e1089ab0cf0c0d4070c0a9276cafc',
  short: 'a76d22f',
  subject: 'feat: paginate GET /todos with a cursor',
  author: 'Ann Dev',
  date: '2026-03-03T04:10:19+00:00',
};

function view(patch: Partial<NoteViewState> = {}): NoteViewState {
  return {
    commit,
    note: peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor'),
    strings: {},
    capabilities: { openFile: false, openInTimeline: false },
    ...patch,
  };
}

describe('Show Note render', () => {
  it('renders the header, ratio and actions', () => {
    const html = R.renderNoteView(view(), fmt);
    assert.ok(
      html.startsWith(
        '<header class="note-header"><h1><code class="sha" title="a76d22f2360e1089ab0cf0c0d4070c0a9276cafc">a76d22f</code> <span class="subject">feat: paginate GET /todos with a cursor</span></h1>',
      ),
    );
    assert.ok(html.includes('<div><dt>Author</dt><dd>Ann Dev</dd></div>'));
    assert.ok(html.includes('<div><dt>Date</dt><dd><time datetime="2026-03-03T04:10:19+00:00">2026-03-03 04:10 UTC</time></dd></div>'));
    assert.ok(
      html.includes(
        '<div><dt>Agent</dt><dd><span class="agent agent-claude"><span class="dot" aria-hidden="true"></span>claude</span></dd></div>',
      ),
    );
    assert.ok(html.includes('<div><dt>Model</dt><dd><code>claude-sonnet-4-5</code></dd></div>'));
    assert.ok(html.includes('<div><dt>Session</dt><dd><code>2b7e4f10-3c5d-4e6f-8a9b-0c1d2e3f4a5b</code></dd></div>'));
    assert.ok(html.includes('<span class="ratio-fill" data-ratio="100"></span>'));
    assert.ok(
      html.includes(
        '<div class="ratio-facts"><span class="ratio-text">100% AI</span> · <span class="muted">by line</span> · <span>47 of 47 added lines by AI</span> · <span class="muted">3 deleted</span></div>',
      ),
    );
    assert.ok(
      html.includes(
        '<div class="actions"><button type="button" data-command="copyJson">Copy JSON</button><button type="button" data-command="copyMarkdown">Copy as Markdown</button></div>',
      ),
    );
    assert.ok(!html.includes('openInTimeline'));
    assert.ok(!html.includes('redacted'));
  });

  it('lists the source commits of a derived note (a squash or rebase merge), short and escaped', () => {
    const note = { ...peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor'), derived_from: ['1'.repeat(40), '2'.repeat(40)] };
    const html = R.renderNoteView(view({ note }), fmt);
    assert.ok(html.includes('<dt>Derived from</dt>'));
    assert.ok(
      html.includes(
        `<code class="sha" title="${'1'.repeat(40)}">${'1'.repeat(8)}</code>, <code class="sha" title="${'2'.repeat(40)}">${'2'.repeat(8)}</code>`,
      ),
    );
    assert.ok(!R.renderNoteView(view(), fmt).includes('Derived from'), 'no row for a note that is not derived');
  });

  it('renders every interaction: contexts, full prompt with line breaks, response, files, tools, selection and level', () => {
    const note = peerNote('todo-api', 'feat-paginate-get-todos-with-a-cursor');
    note.interactions[0].prompt = 'line one\n  line two';
    const html = R.renderNoteView(view({ note }), fmt);
    assert.equal((html.match(/<article class="interaction/g) ?? []).length, 4);
    assert.ok(html.includes('<h2>Prompts (4)</h2>'));
    assert.ok(html.includes('<div class="prompt">line one\n  line two</div>'));
    assert.ok(
      html.includes(
        '<div class="context"><div class="label"><span class="codicon codicon-note" aria-hidden="true"></span> Context <span class="muted">scope</span></div><div class="text">`GET /todos` reads `cursor` and `limit` from the query string and returns the page object from `store.list`.</div></div>',
      ),
    );
    assert.ok(html.includes('<dt>Files touched</dt><dd><code>src/routes.ts</code> <code>test/store.test.ts</code></dd>'));
    assert.ok(html.includes('<dt>Tools</dt><dd><span class="tool">Edit</span> <span class="tool">Write</span></dd>'));
    assert.ok(
      html.includes(
        '<article class="interaction level-high" aria-labelledby="prompt-0"><header><h3 id="prompt-0">Prompt 1</h3> <span class="badge level-badge" title="Relevance">high</span> <span class="badge source-badge">primary</span></header>',
      ),
    );
    assert.ok(
      html.includes(
        '<article class="interaction level-low" aria-labelledby="prompt-3"><header><h3 id="prompt-3">Prompt 4</h3> <span class="badge level-badge" title="Relevance">low</span> <span class="badge source-badge">tail</span></header>',
      ),
    );
    assert.ok(html.includes('<div class="prompt">Looks good, commit it.</div><p class="muted no-response">No response recorded.</p>'));
    assert.ok(
      html.includes(
        '<dt>Selection</dt><dd>tail — <span class="signals"><code>before_commit_boundary</code> <code>between_non_excluded_prompts</code></span></dd>',
      ),
    );
  });

  it('escapes prompts, responses, contexts and paths', () => {
    const note = peerNote('todo-api', 'feat-validate-todo-titles');
    note.interactions[0].prompt = '<script>alert(1)</script>';
    note.interactions[0].response = '<img src=x onerror=alert(2)>';
    note.interactions[0].contexts = [{ kind: 'reference', source: 'previous_response', text: '</div><iframe>' }];
    note.files[0].path = 'src/"><svg>.ts';
    note.interactions[0].files_touched = ['src/"><svg>.ts'];
    const html = R.renderNoteView(view({ note, capabilities: { openFile: true, openInTimeline: true } }), fmt);
    assert.ok(!/<script|<img|<iframe|<svg/i.test(html));
    assert.ok(html.includes('<div class="prompt">&lt;script&gt;alert(1)&lt;/script&gt;</div>'));
    assert.ok(
      html.includes(
        '<button type="button" class="link-button file-link" data-file="src/&quot;&gt;&lt;svg&gt;.ts"><code>src/&quot;&gt;&lt;svg&gt;.ts</code></button>',
      ),
    );
    assert.ok(html.includes('data-command="openInTimeline"'));
  });

  it('renders the files table with AI/human, generated, excluded and AI line ranges', () => {
    const note = peerNote('todo-api', 'build-add-openapi-spec-generated-types-and-dist-build');
    note.files[1].ai_ranges = [
      { start: 1, end: 30, interaction: 0 },
      { start: 41, end: 41, interaction: null },
    ];
    const html = R.renderNoteView(view({ note }), fmt);
    assert.ok(
      html.includes(
        '<thead><tr><th scope="col">File</th><th scope="col">By</th><th scope="col">Generated</th><th scope="col">Excluded</th><th scope="col">AI lines</th></tr></thead>',
      ),
    );
    assert.ok(
      html.includes(
        '<tr><th scope="row"><code>dist/index.js</code></th><td><span class="badge by-human">Human</span></td><td></td><td>yes</td><td></td></tr>',
      ),
    );
    assert.ok(
      html.includes(
        '<tr><th scope="row"><code>openapi.yaml</code></th><td><span class="badge by-ai">AI</span></td><td></td><td></td><td>1–30 (prompt 1), 41</td></tr>',
      ),
    );
    assert.ok(
      html.includes(
        '<tr><th scope="row"><code>src/generated/api-types.ts</code></th><td><span class="badge by-human">Human</span></td><td>yes</td><td></td><td></td></tr>',
      ),
    );
  });

  it('shows the redaction count only when > 0, with localized labels', () => {
    assert.ok(
      R.renderNoteView(view({ redactions: 3 }), fmt).includes(
        '<p class="redactions" role="note"><span class="codicon codicon-lock" aria-hidden="true"></span> 3 secrets redacted</p>',
      ),
    );
    assert.ok(
      R.renderNoteView(view({ redactions: 1, strings: { redactedOne: '1 Geheimnis entfernt' } }), fmt).includes(
        '<span class="codicon codicon-lock" aria-hidden="true"></span> 1 Geheimnis entfernt</p>',
      ),
    );
    assert.ok(!R.renderNoteView(view({ redactions: 0 }), fmt).includes('class="redactions"'));
  });

  it('shows an invalid note as its reason and escaped raw text instead of failing', () => {
    const html = R.renderNoteView(view({ note: undefined, invalidReason: 'not JSON', raw: '{"prompt": "<script>x</script>"' }), fmt);
    assert.ok(
      html.includes(
        '<section class="invalid" role="alert"><h2>This Agent Note could not be read</h2><p>Reason: not JSON</p><h3>Stored note text</h3><pre class="raw">{&quot;prompt&quot;: &quot;&lt;script&gt;x&lt;/script&gt;&quot;</pre></section>',
      ),
    );
    assert.ok(html.includes('data-command="copyJson"'));
    assert.ok(!html.includes('data-command="copyMarkdown"'));
    assert.ok(!html.includes('interaction'));
  });

  it('says when a commit has no note', () => {
    const html = R.renderNoteView(view({ note: undefined }), fmt);
    assert.ok(html.includes('<p class="empty">This commit has no Agent Note.</p>'));
    assert.ok(!html.includes('class="actions"'));
  });

  it('restores a valid persisted UI state only', () => {
    assert.deepEqual(R.parseNoteUiState({ v: 1, sha: 'abc', scrollTop: 40 }), { v: 1, sha: 'abc', scrollTop: 40 });
    assert.deepEqual(R.parseNoteUiState({ v: 1, sha: 5, scrollTop: 'x' }), { v: 1, sha: null, scrollTop: 0 });
    assert.deepEqual(R.parseNoteUiState(null), { v: 1, sha: null, scrollTop: 0 });
  });
});
