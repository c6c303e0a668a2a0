import * as assert from 'node:assert/strict';
import { IpcCommand, IpcNotification, IpcRequest, isIpcError, isIpcMessage } from '../../../src/webviews/protocol';

describe('webview IPC descriptors', () => {
  it('names a request reply `${method}/completion`', () => {
    const req = new IpcRequest<void, { n: number }>('timeline/ready');
    assert.equal(req.method, 'timeline/ready');
    assert.equal(req.response.method, 'timeline/ready/completion');
    assert.equal(req.kind, 'request');
    assert.equal(req.response.kind, 'notification');
  });

  it('recognizes its own messages by method only', () => {
    const cmd = new IpcCommand<{ sha: string }>('timeline/openNote');
    assert.equal(cmd.is({ id: '1', method: 'timeline/openNote', params: { sha: 'abc' } }), true);
    assert.equal(cmd.is({ id: '1', method: 'timeline/openFile', params: {} }), false);
    assert.equal(new IpcNotification('x').is({ id: '2', method: 'x', params: undefined }), true);
  });

  it('tells an error completion from a result', () => {
    assert.equal(isIpcError({ error: 'snapshot failed' }), true);
    assert.equal(isIpcError({ error: 'x', sessions: [] }), false);
    assert.equal(isIpcError({ error: 3 }), false);
    assert.equal(isIpcError(null), false);
    assert.equal(isIpcError([{ error: 'x' }]), false);
  });

  it('checks the envelope of received messages', () => {
    assert.equal(isIpcMessage({ id: 'wv-1', method: 'timeline/ready' }), true);
    assert.equal(isIpcMessage({ id: 'h-1', method: 'm/completion', params: {}, completionId: 'wv-1' }), true);
    assert.equal(isIpcMessage({ id: 1, method: 'x' }), false);
    assert.equal(isIpcMessage({ id: 'a', method: 'x', completionId: 5 }), false);
    assert.equal(isIpcMessage('timeline/ready'), false);
    assert.equal(isIpcMessage(null), false);
  });
});
