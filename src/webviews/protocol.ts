/**
 * Typed IPC descriptors shared by the extension host and the webview apps (docs/webviews.md).
 * No `vscode` import: this file is bundled into the browser apps too.
 *
 * - {@link IpcCommand}: webview → host, no reply.
 * - {@link IpcRequest}: webview → host, replied with a notification named `${method}/completion`
 *   whose `completionId` is the request's `id`.
 * - {@link IpcNotification}: host → webview. Notifications that may be buffered while a view is
 *   hidden always carry a complete snapshot, never a delta.
 */

/** One message on the wire, in either direction. */
export interface IpcMessage<P = unknown> {
  /** Unique per sender (e.g. `wv-12`, `host-3`). */
  id: string;
  method: string;
  params: P;
  /** On a `/completion` notification: the `id` of the request it answers. */
  completionId?: string;
}

/** What a failed request's completion carries instead of the result. */
export interface IpcErrorResult {
  error: string;
}

/** True when a completion's params are an error rather than a result. */
export function isIpcError(value: unknown): value is IpcErrorResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as { error?: unknown }).error === 'string'
  );
}

abstract class IpcCall<P> {
  constructor(readonly method: string) {}

  /** Type guard: the message is this call (by method name; params are validated separately on the host). */
  is(msg: IpcMessage): msg is IpcMessage<P> {
    return msg.method === this.method;
  }
}

/** Webview → host, fire and forget. */
export class IpcCommand<P = void> extends IpcCall<P> {
  readonly kind = 'command';
}

/** Host → webview. */
export class IpcNotification<P = void> extends IpcCall<P> {
  readonly kind = 'notification';
}

/** Webview → host with a reply; the reply is the `response` notification (`${method}/completion`). */
export class IpcRequest<P = void, R = void> extends IpcCall<P> {
  readonly kind = 'request';
  readonly response: IpcNotification<R | IpcErrorResult>;

  constructor(method: string) {
    super(method);
    this.response = new IpcNotification<R | IpcErrorResult>(`${method}/completion`);
  }
}

/** Loose shape check of anything received from the other side (params are not checked here). */
export function isIpcMessage(value: unknown): value is IpcMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.method === 'string' && (v.completionId === undefined || typeof v.completionId === 'string');
}
