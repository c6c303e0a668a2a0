import * as assert from 'node:assert/strict';
import { Counters, type Logger } from '../../../src/core/ports';
import { acceptInbound } from '../../../src/webviews/inboundMessages';
import { noteMessageSchemas, parseNoteMessage } from '../../../src/webviews/note/noteMessages';
import * as noteProtocol from '../../../src/webviews/note/protocol';
import * as timelineProtocol from '../../../src/webviews/timeline/protocol';
import { parseTimelineMessage, timelineMessageSchemas } from '../../../src/webviews/timeline/timelineMessages';
import { IpcCommand, IpcRequest } from '../../../src/webviews/protocol';

function inboundMethods(protocol: Record<string, unknown>): string[] {
  return Object.values(protocol)
    .filter((v): v is IpcCommand<unknown> | IpcRequest<unknown, unknown> => v instanceof IpcCommand || v instanceof IpcRequest)
    .map((d) => d.method)
    .sort();
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const rec = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
  return { lines, trace: rec('trace'), debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}

describe('inbound webview messages', () => {
  it('has exactly one schema per webview → host descriptor', () => {
    assert.deepEqual(Object.keys(timelineMessageSchemas).sort(), inboundMethods(timelineProtocol));
    assert.deepEqual(Object.keys(noteMessageSchemas).sort(), inboundMethods(noteProtocol));
  });

  describe('Timeline', () => {
    it('accepts well-formed messages and types their params', () => {
      assert.deepEqual(parseTimelineMessage({ id: 'wv-1', method: 'timeline/ready' }), {
        ok: true,
        message: { id: 'wv-1', method: 'timeline/ready', params: undefined },
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-2', method: 'timeline/ready', params: null }), {
        ok: true,
        message: { id: 'wv-2', method: 'timeline/ready', params: undefined },
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-3', method: 'timeline/openEditDiff', params: { editId: 'e:1' } }), {
        ok: true,
        message: { id: 'wv-3', method: 'timeline/openEditDiff', params: { editId: 'e:1' } },
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-4', method: 'timeline/openNote', params: { sha: 'a76d22f' } }), {
        ok: true,
        message: { id: 'wv-4', method: 'timeline/openNote', params: { sha: 'a76d22f' } },
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-5', method: 'timeline/openFile', params: { file: 'src/store.ts', extra: 1 } }), {
        ok: true,
        message: { id: 'wv-5', method: 'timeline/openFile', params: { file: 'src/store.ts' } },
      });
      const filters = { agents: ['claude'], sessionKey: null, file: 'src/a.ts', text: 'todo' };
      assert.deepEqual(parseTimelineMessage({ id: 'wv-6', method: 'timeline/filterChanged', params: filters }), {
        ok: true,
        message: { id: 'wv-6', method: 'timeline/filterChanged', params: filters },
      });
    });

    it('rejects unknown methods, bad envelopes and bad params', () => {
      assert.deepEqual(parseTimelineMessage({ id: 'wv-1', method: 'timeline/deleteEverything', params: {} }), {
        ok: false,
        reason: 'unknownMethod',
        method: 'timeline/deleteEverything',
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-1', method: 'toString' }), {
        ok: false,
        reason: 'unknownMethod',
        method: 'toString',
      });
      assert.deepEqual(parseTimelineMessage({ method: 'timeline/ready' }), { ok: false, reason: 'malformed' });
      assert.deepEqual(parseTimelineMessage('timeline/ready'), { ok: false, reason: 'malformed' });
      assert.deepEqual(parseTimelineMessage(null), { ok: false, reason: 'malformed' });
      const bad = (method: string, params: unknown) => parseTimelineMessage({ id: 'x', method, params });
      assert.deepEqual(bad('timeline/openNote', { sha: 'HEAD~1' }), { ok: false, reason: 'invalidParams', method: 'timeline/openNote' });
      assert.deepEqual(bad('timeline/openNote', {}), { ok: false, reason: 'invalidParams', method: 'timeline/openNote' });
      assert.deepEqual(bad('timeline/openEditDiff', { editId: '' }), {
        ok: false,
        reason: 'invalidParams',
        method: 'timeline/openEditDiff',
      });
      assert.deepEqual(parseTimelineMessage({ id: 'wv-9', method: 'timeline/revealEdit', params: { editId: 'e:42' } }), {
        ok: true,
        message: { id: 'wv-9', method: 'timeline/revealEdit', params: { editId: 'e:42' } },
      });
      for (const params of [{}, { editId: '' }, { editId: 'x'.repeat(501) }, { editId: 7 }])
        assert.deepEqual(bad('timeline/revealEdit', params), { ok: false, reason: 'invalidParams', method: 'timeline/revealEdit' });
      assert.deepEqual(bad('timeline/ready', { x: 1 }), { ok: false, reason: 'invalidParams', method: 'timeline/ready' });
      for (const file of ['/etc/passwd', '../outside.ts', 'src/../../x', 'C:\\win.ini', 'a\0b', '']) {
        assert.deepEqual(bad('timeline/openFile', { file }), { ok: false, reason: 'invalidParams', method: 'timeline/openFile' }, file);
      }
      assert.deepEqual(bad('timeline/filterChanged', { agents: 'claude', sessionKey: null, file: null, text: '' }), {
        ok: false,
        reason: 'invalidParams',
        method: 'timeline/filterChanged',
      });
    });

    it('counts and logs rejections without the params', () => {
      const counters = new Counters();
      const log = recordingLogger();
      assert.equal(
        acceptInbound(
          parseTimelineMessage,
          { id: 'x', method: 'timeline/openNote', params: { sha: 'secret prompt text' } },
          'timeline',
          log,
          counters,
        ),
        undefined,
      );
      assert.equal(acceptInbound(parseTimelineMessage, { id: 'x', method: 'nope' }, 'timeline', log, counters), undefined);
      assert.equal(acceptInbound(parseTimelineMessage, 42, 'timeline', log, counters), undefined);
      assert.deepEqual(counters.snapshot(), {
        'timeline.inbound.invalidParams': 1,
        'timeline.inbound.malformed': 1,
        'timeline.inbound.unknownMethod': 1,
      });
      assert.deepEqual(log.lines, [
        'debug timeline: ignored invalidParams message timeline/openNote',
        'debug timeline: ignored unknownMethod message nope',
        'debug timeline: ignored malformed message',
      ]);
      assert.ok(!log.lines.join('\n').includes('secret'));
    });
  });

  describe('Show Note', () => {
    it('accepts its commands', () => {
      for (const method of ['note/ready', 'note/copyJson', 'note/copyMarkdown', 'note/openInTimeline']) {
        assert.deepEqual(parseNoteMessage({ id: 'wv-1', method }), { ok: true, message: { id: 'wv-1', method, params: undefined } });
      }
      assert.deepEqual(parseNoteMessage({ id: 'wv-2', method: 'note/openFile', params: { path: 'src/cart.ts' } }), {
        ok: true,
        message: { id: 'wv-2', method: 'note/openFile', params: { path: 'src/cart.ts' } },
      });
    });

    it('rejects the Timeline’s methods and bad paths', () => {
      assert.deepEqual(parseNoteMessage({ id: 'wv-1', method: 'timeline/ready' }), {
        ok: false,
        reason: 'unknownMethod',
        method: 'timeline/ready',
      });
      assert.deepEqual(parseNoteMessage({ id: 'wv-1', method: 'note/openFile', params: { path: '/home/u/.ssh/id_rsa' } }), {
        ok: false,
        reason: 'invalidParams',
        method: 'note/openFile',
      });
      assert.deepEqual(parseNoteMessage({ id: 'wv-1', method: 'note/copyJson', params: { text: 'x' } }), {
        ok: false,
        reason: 'invalidParams',
        method: 'note/copyJson',
      });
    });
  });
});
