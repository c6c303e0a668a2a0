/**
 * The only place the apps talk to the extension host (docs/webviews.md §10): typed commands,
 * requests with `/completion` replies, notifications, and the persisted UI state.
 */
import { isIpcError, isIpcMessage, type IpcCommand, type IpcMessage, type IpcNotification, type IpcRequest } from '../../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Handler = (params: unknown) => void;

export interface HostChannel {
  sendCommand<P>(command: IpcCommand<P>, params: P): void;
  sendRequest<P, R>(request: IpcRequest<P, R>, params: P, timeoutMs?: number): Promise<R>;
  onNotification<P>(notification: IpcNotification<P>, handler: (params: P) => void): void;
  /** The UI state persisted with setState (unvalidated: parse it). */
  getState(): unknown;
  setState(state: unknown): void;
}

/** Create the channel; call once per app (acquireVsCodeApi may only be called once). */
export function createHostChannel(): HostChannel {
  const api = acquireVsCodeApi();
  let seq = 0;
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  const handlers = new Map<string, Handler[]>();

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const msg = event.data;
    if (!isIpcMessage(msg)) return;
    if (msg.completionId !== undefined) {
      const p = pending.get(msg.completionId);
      if (!p) return;
      pending.delete(msg.completionId);
      clearTimeout(p.timer);
      if (isIpcError(msg.params)) p.reject(new Error(msg.params.error));
      else p.resolve(msg.params);
      return;
    }
    for (const h of handlers.get(msg.method) ?? []) h(msg.params);
  });

  const post = (method: string, params: unknown): string => {
    const id = `wv-${++seq}`;
    const message: IpcMessage = { id, method, params };
    api.postMessage(message);
    return id;
  };

  return {
    sendCommand(command, params) {
      post(command.method, params);
    },
    sendRequest<P, R>(request: IpcRequest<P, R>, params: P, timeoutMs = 30_000): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const id = post(request.method, params);
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${request.method} timed out`));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      });
    },
    onNotification<P>(notification: IpcNotification<P>, handler: (params: P) => void) {
      const list = handlers.get(notification.method) ?? [];
      list.push(handler as Handler);
      handlers.set(notification.method, list);
    },
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
