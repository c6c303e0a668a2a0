/**
 * Host side of the webview channel (docs/webviews.md §4–5), without `vscode` so it is unit-tested:
 * - never posts a notification before the webview sent its ready request;
 * - while the view is hidden or not ready, keeps only the newest pending notification per method
 *   (notifications are complete snapshots, so the newest one supersedes the rest);
 * - replies to requests on `${method}/completion` with `completionId`, errors as `{ error }`.
 * With `retainContextWhenHidden: false` a hidden webview is destroyed and sends ready again
 * when shown, so hiding also resets the ready state.
 */
import type { Logger } from '../core/ports';
import type { IpcErrorResult, IpcMessage, IpcNotification } from './protocol';

/** What the channel needs from a `vscode.Webview`. */
export interface IpcTransport {
  postMessage(message: IpcMessage): PromiseLike<boolean>;
}

type Pending = { lazy: true; get: () => Promise<unknown> } | { lazy: false; value: unknown };

export class IpcHostChannel {
  private ready = false;
  private visible = true;
  private seq = 0;
  private readonly pending = new Map<string, Pending>();
  private disposed = false;

  constructor(
    private readonly transport: IpcTransport,
    private readonly log: Logger,
  ) {}

  /** True when notifications go out immediately. */
  get canPost(): boolean {
    return this.ready && this.visible && !this.disposed;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Methods with a notification waiting (newest value only). */
  get pendingMethods(): string[] {
    return [...this.pending.keys()];
  }

  /** The webview answered ready: from now on notifications are posted. Flushes what is pending. */
  async markReady(): Promise<void> {
    this.ready = true;
    await this.flush();
  }

  /** Panel visibility changed. Hidden ⇒ the webview context is gone until it sends ready again. */
  async setVisible(visible: boolean): Promise<void> {
    this.visible = visible;
    if (!visible) this.ready = false;
    else await this.flush();
  }

  /** Forget a pending notification (e.g. the ready reply already carries a newer snapshot). */
  dropPending(notification: { readonly method: string }): void {
    this.pending.delete(notification.method);
  }

  /**
   * Send a notification now, or keep it as the newest pending one of its method. `params` may be
   * a function, evaluated only when the notification is actually posted (no work while hidden).
   */
  async notify<P>(notification: IpcNotification<P>, params: P | (() => Promise<P>)): Promise<void> {
    const entry: Pending =
      typeof params === 'function' ? { lazy: true, get: params as () => Promise<unknown> } : { lazy: false, value: params };
    if (!this.canPost) {
      this.pending.set(notification.method, entry);
      return;
    }
    await this.postEntry(notification.method, entry);
  }

  /** Reply to a request (posted even when not ready: the webview is alive, it just asked). */
  async reply<R>(request: { readonly response: IpcNotification<R | IpcErrorResult> }, requestId: string, result: R): Promise<void> {
    await this.post({ id: this.nextId(), method: request.response.method, params: result, completionId: requestId });
  }

  /** Reply to a request with an error message (never contents of prompts). */
  async replyError(request: { readonly response: { readonly method: string } }, requestId: string, error: string): Promise<void> {
    await this.post({ id: this.nextId(), method: request.response.method, params: { error }, completionId: requestId });
  }

  dispose(): void {
    this.disposed = true;
    this.pending.clear();
  }

  private nextId(): string {
    return `host-${++this.seq}`;
  }

  private async flush(): Promise<void> {
    while (this.canPost && this.pending.size > 0) {
      const [method, entry] = this.pending.entries().next().value as [string, Pending];
      this.pending.delete(method);
      await this.postEntry(method, entry);
    }
  }

  private async postEntry(method: string, entry: Pending): Promise<void> {
    let params: unknown;
    try {
      params = entry.lazy ? await entry.get() : entry.value;
    } catch (e) {
      this.log.warn(`could not compute ${method}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    // The view may have been hidden while the params were computed: keep them for later.
    if (!this.canPost) {
      if (!this.pending.has(method)) this.pending.set(method, { lazy: false, value: params });
      return;
    }
    await this.post({ id: this.nextId(), method, params });
  }

  private async post(message: IpcMessage): Promise<void> {
    if (this.disposed) return;
    try {
      const ok = await this.transport.postMessage(message);
      if (!ok) this.log.debug(`webview did not accept ${message.method}`);
    } catch (e) {
      this.log.debug(`postMessage ${message.method} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
