import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/core/ports';
import { IpcHostChannel } from '../../../src/webviews/ipcHost';
import { IpcNotification, IpcRequest } from '../../../src/webviews/protocol';
import { FakeTransport } from './fakes';

const snapshot = new IpcNotification<{ n: number }>('v/didChange');
const other = new IpcNotification<string>('v/other');
const ready = new IpcRequest<void, { n: number }>('v/ready');

describe('IpcHostChannel', () => {
  it('posts nothing before the webview is ready, then only the newest snapshot', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    await ch.notify(snapshot, { n: 1 });
    await ch.notify(snapshot, { n: 2 });
    await ch.notify(other, 'a');
    assert.equal(t.posted.length, 0);
    assert.deepEqual(ch.pendingMethods, ['v/didChange', 'v/other']);
    await ch.markReady();
    assert.deepEqual(
      t.posted.map((m) => [m.method, m.params]),
      [
        ['v/didChange', { n: 2 }],
        ['v/other', 'a'],
      ],
    );
    assert.deepEqual(ch.pendingMethods, []);
  });

  it('keeps only the newest pending snapshot while hidden, and needs a new ready after hiding', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    await ch.markReady();
    await ch.notify(snapshot, { n: 1 });
    assert.equal(t.posted.length, 1);
    await ch.setVisible(false);
    assert.equal(ch.isReady, false);
    for (let n = 2; n <= 5; n++) await ch.notify(snapshot, { n });
    await ch.setVisible(true);
    assert.equal(t.posted.length, 1, 'the recreated webview has not sent ready yet');
    await ch.markReady();
    assert.deepEqual(
      t.posted.map((m) => m.params),
      [{ n: 1 }, { n: 5 }],
    );
  });

  it('evaluates lazy params only when it can post, once', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    let calls = 0;
    const lazy = () => Promise.resolve({ n: ++calls });
    await ch.notify(snapshot, lazy);
    await ch.notify(snapshot, lazy);
    assert.equal(calls, 0);
    await ch.markReady();
    assert.equal(calls, 1);
    assert.deepEqual(
      t.posted.map((m) => m.params),
      [{ n: 1 }],
    );
  });

  it('drops a pending snapshot on request', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    await ch.notify(snapshot, { n: 1 });
    ch.dropPending(snapshot);
    await ch.markReady();
    assert.equal(t.posted.length, 0);
  });

  it('replies to requests on /completion with the request id, results and errors', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    await ch.reply(ready, 'wv-1', { n: 7 });
    await ch.replyError(ready, 'wv-2', 'snapshot failed');
    assert.deepEqual(t.posted, [
      { id: 'host-1', method: 'v/ready/completion', params: { n: 7 }, completionId: 'wv-1' },
      { id: 'host-2', method: 'v/ready/completion', params: { error: 'snapshot failed' }, completionId: 'wv-2' },
    ]);
  });

  it('posts nothing after dispose and survives failing params', async () => {
    const t = new FakeTransport();
    const ch = new IpcHostChannel(t, nullLogger);
    await ch.markReady();
    await ch.notify(snapshot, () => Promise.reject(new Error('x')));
    assert.equal(t.posted.length, 0);
    ch.dispose();
    await ch.notify(snapshot, { n: 1 });
    await ch.reply(ready, 'wv-1', { n: 1 });
    assert.equal(t.posted.length, 0);
  });
});
