import * as assert from 'node:assert/strict';
import { EditCapture, type AgentClaim, type ContentTransition, recordContent } from '../../../src/core/capture/editCapture';
import { transitionMatchesEdit } from '../../../src/core/capture/editMatcher';
import type { EditEvent } from '../../../src/core/model/agentEvents';

const edit = (e: Partial<EditEvent>): EditEvent => ({
  kind: 'edit',
  agent: 'claude',
  sessionId: 's1',
  file: '/repo/a.ts',
  tool: 'Edit',
  ...e,
});
const claim = (key: string, e: Partial<EditEvent>, receivedAt: number, file = 'a.ts'): AgentClaim => ({
  key,
  file,
  agent: 'claude',
  sessionId: 's1',
  turn: 1,
  interactionKey: 'claude:s1:1',
  edit: edit(e),
  receivedAt,
});
const tr = (
  id: string,
  before: string,
  after: string,
  time: number,
  source: ContentTransition['source'] = 'disk',
  file = 'a.ts',
): ContentTransition => ({ id, file, before, after, time, source });

describe('transitionMatchesEdit', () => {
  it('matches old/new string replacements', () => {
    assert.equal(transitionMatchesEdit(edit({ oldString: 'b', newString: 'b\nc' }), 'a\nb\n', 'a\nb\nc\n'), true);
    assert.equal(transitionMatchesEdit(edit({ oldString: 'b', newString: 'b\nc' }), 'a\nb\n', 'a\nb\n'), false);
    assert.equal(transitionMatchesEdit(edit({ oldString: 'x', newString: 'y' }), 'a\n', 'y\n'), false, 'old text must have been there');
  });
  it('matches full contents and ignores CRLF vs LF', () => {
    assert.equal(transitionMatchesEdit(edit({ contents: 'one\ntwo\n' }), '', 'one\r\ntwo\r\n'), true);
    assert.equal(transitionMatchesEdit(edit({ contents: 'one\ntwo\n' }), '', 'one\n'), false);
  });
  it('matches a patch by its added and removed lines', () => {
    const patch = '*** Begin Patch\n*** Update File: a.ts\n@@\n one\n-two\n+TWO\n*** End Patch\n';
    assert.equal(transitionMatchesEdit(edit({ patch }), 'one\ntwo\n', 'one\nTWO\n'), true);
    assert.equal(transitionMatchesEdit(edit({ patch }), 'one\nthree\n', 'one\nTWO\n'), false);
  });
  it('never matches failed edits or no-op transitions', () => {
    assert.equal(transitionMatchesEdit(edit({ contents: 'x', failed: true }), '', 'x'), false);
    assert.equal(transitionMatchesEdit(edit({ contents: 'x' }), 'x', 'x'), false);
  });
});

describe('EditCapture', () => {
  it('a forced tick (right before a commit) classifies every pending change, and a late claim still re-classifies it', () => {
    const cap = new EditCapture();
    cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 1000, 'typing'));
    assert.deepEqual(cap.tick(1500), [], 'within the grace period');
    assert.deepEqual(
      cap.tick(1600, true).map((o) => o.kind),
      ['human'],
    );
    assert.deepEqual(
      cap.addClaim(claim('k1', { oldString: 'a', newString: 'a\nb' }, 2000)).map((o) => o.kind),
      ['ai'],
    );
  });

  it('an editor-hosted agent (Copilot): a claim no captured change confirms never stands on its record alone', () => {
    const cap = new EditCapture({ recordFallback: (agent) => agent !== 'copilot' });
    const copilot = (key: string, e: Partial<EditEvent>, at: number): AgentClaim => ({
      ...claim(key, e, at),
      agent: 'copilot',
      edit: { ...edit(e), agent: 'copilot', tool: 'replace_string_in_file' },
      interactionKey: 'copilot:s1:1',
    });
    // applied, then undone by the person before the commit: the AI part is its own pair, the undo a human change
    cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 1000, 'bulk'));
    assert.deepEqual(
      cap.addClaim(copilot('k1', { oldString: 'a', newString: 'a\nb' }, 2000)).map((o) => o.kind),
      ['ai'],
    );
    // rejected before it reached the document: nothing ever matches it
    cap.addClaim(copilot('k2', { oldString: 'a', newString: 'a\nzzz' }, 2000));
    cap.addClaim(claim('k3', { contents: 'z\n' }, 2000, 'b.ts'));
    const forced = cap.tick(3000, true);
    assert.deepEqual(
      forced.filter((o) => o.kind === 'ai-record').map((o) => o.kind === 'ai-record' && o.claim.key),
      ['k3'],
      'only the disk agent falls back to its record',
    );
  });

  it('a claim arriving after the change makes it AI', () => {
    const cap = new EditCapture();
    assert.deepEqual(cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 1000)), []);
    const out = cap.addClaim(claim('k1', { oldString: 'a', newString: 'a\nb' }, 3000));
    assert.equal(out.length, 1);
    assert.equal(out[0].kind, 'ai');
    assert.equal(out[0].kind === 'ai' && out[0].transition.id, 't1');
    // not classified as other later
    assert.deepEqual(
      cap.tick(20_000).filter((o) => o.kind !== 'ai-record'),
      [],
    );
  });

  it('a claim arriving before the change is matched when the change shows up', () => {
    const cap = new EditCapture();
    assert.deepEqual(cap.addClaim(claim('k1', { contents: 'hello\n' }, 1000)), []);
    const out = cap.addTransition(tr('t1', '', 'hello\n', 1500));
    assert.equal(out.length, 1);
    assert.equal(out[0].kind, 'ai');
  });

  it('unclaimed typing becomes human and unclaimed disk writes become other after the grace period', () => {
    const cap = new EditCapture({ graceMs: 1000 });
    cap.addTransition(tr('t1', 'a', 'ab', 0, 'typing'));
    cap.addTransition(tr('t2', 'x', 'y', 0, 'disk', 'b.ts'));
    assert.deepEqual(cap.tick(500), []);
    const out = cap.tick(1500);
    assert.deepEqual(out.map((o) => o.kind).sort(), ['human', 'other']);
  });

  it('a late claim re-classifies a transition already called human', () => {
    const cap = new EditCapture({ graceMs: 1000 });
    cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 0, 'bulk'));
    assert.equal(cap.tick(2000)[0].kind, 'human');
    const out = cap.addClaim(claim('k1', { oldString: 'a', newString: 'a\nb' }, 8000));
    assert.equal(out[0].kind, 'ai');
  });

  it('claims outside the window do not match; they fall back to the record content', () => {
    const cap = new EditCapture({ matchWindowMs: 1000 });
    cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 0));
    assert.deepEqual(cap.addClaim(claim('k1', { oldString: 'a', newString: 'a\nb', originalContent: 'a\n' }, 10_000)), []);
    const out = cap.tick(12_000);
    const rec = out.find((o) => o.kind === 'ai-record');
    assert.ok(rec && rec.kind === 'ai-record');
    assert.equal(rec.before, 'a\n');
    assert.equal(rec.after, 'a\nb\n');
  });

  it('force resolves pending claims immediately (before a commit is recorded)', () => {
    const cap = new EditCapture();
    cap.addClaim(claim('k1', { contents: 'z\n' }, 0));
    const out = cap.tick(10, true);
    assert.deepEqual(out, [
      { kind: 'ai-record', claim: out[0].kind === 'ai-record' ? out[0].claim : undefined, before: undefined, after: 'z\n' },
    ]);
  });

  it('dedupes claims by key and prefers the unclaimed, closest transition', () => {
    const cap = new EditCapture();
    cap.addTransition(tr('t1', 'a\n', 'a\nb\n', 1000));
    cap.addTransition(tr('t2', 'a\nb\n', 'a\nb\nb\n', 2000));
    const first = cap.addClaim(claim('k1', { oldString: 'a\nb', newString: 'a\nb\nb' }, 2100));
    assert.equal(first[0].kind === 'ai' && first[0].transition.id, 't2');
    assert.deepEqual(cap.addClaim(claim('k1', { oldString: 'a\nb', newString: 'a\nb\nb' }, 2100)), []);
  });
});

describe('recordContent', () => {
  it('derives the result of a Claude Edit from originalFile + old/new', () => {
    assert.deepEqual(recordContent(edit({ originalContent: 'x\ny\n', oldString: 'y', newString: 'Y' })), {
      before: 'x\ny\n',
      after: 'x\nY\n',
    });
  });
  it('keeps CRLF line endings of a CRLF-only original (the strings are LF); mixed endings stay LF-normalized', () => {
    assert.deepEqual(recordContent(edit({ originalContent: 'one\r\ntwo\r\n', oldString: 'two\n', newString: 'two\nthree\n' })), {
      before: 'one\r\ntwo\r\n',
      after: 'one\r\ntwo\r\nthree\r\n',
    });
    assert.deepEqual(recordContent(edit({ originalContent: 'one\r\ntwo\n', oldString: 'two', newString: 'TWO' })), {
      before: 'one\r\ntwo\n',
      after: 'one\nTWO\n',
    });
  });
  it('uses Write contents and marks deletions as empty', () => {
    assert.deepEqual(recordContent(edit({ contents: 'c' })), { before: undefined, after: 'c' });
    assert.deepEqual(recordContent(edit({ deleted: true, originalContent: 'q' })), { before: 'q', after: '' });
  });
});
