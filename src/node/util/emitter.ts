/** A subscription: dispose() removes the listener. */
export interface Subscription {
  dispose(): void;
}

/** Subscribes a listener to an {@link Emitter}'s event (the shape of VS Code's `Event<T>`, without vscode). */
export type EventOf<T> = (listener: (e: T) => void) => Subscription;

/**
 * A typed event for src/node objects (no vscode import): `event` subscribes, `fire` calls every
 * listener in subscription order (a throwing listener does not stop the others; `onError` hears
 * of it), `dispose` drops all listeners and ignores later fires.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  private disposed = false;

  constructor(private readonly onError?: (e: unknown) => void) {}

  readonly event: EventOf<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    // a wrapper per subscription: the same function subscribed twice is called twice, as in VS Code
    const l = (e: T) => listener(e);
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };

  /** Listeners subscribed now. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  fire(e: T): void {
    if (this.disposed) return;
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.onError?.(err);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
