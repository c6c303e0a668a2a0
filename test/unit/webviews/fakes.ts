/** Test doubles for the host side of the webviews. */
import type { Logger } from '../../../src/core/ports';
import type { IpcMessage } from '../../../src/webviews/protocol';
import type { TimelineDataSource } from '../../../src/webviews/timeline/timelineController';
import type { TimelineState } from '../../../src/webviews/timeline/protocol';

export class FakeTransport {
  readonly posted: IpcMessage[] = [];
  accept = true;
  postMessage(message: IpcMessage): Promise<boolean> {
    // Structured clone, as the real webview transport does.
    this.posted.push(JSON.parse(JSON.stringify(message)) as IpcMessage);
    return Promise.resolve(this.accept);
  }
  methods(): string[] {
    return this.posted.map((m) => m.method);
  }
}

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const rec = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
  return { lines, trace: rec('trace'), debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}

export class FakeTimelineSource implements TimelineDataSource {
  state: TimelineState = { sessions: [], entries: [], strings: {} };
  getStateCalls = 0;
  failNext = false;
  readonly calls: string[] = [];
  private listeners: (() => void)[] = [];

  getState(): Promise<TimelineState> {
    this.getStateCalls++;
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('boom'));
    }
    return Promise.resolve(structuredClone(this.state));
  }
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }
  fire(): void {
    for (const l of this.listeners) l();
  }
  get listenerCount(): number {
    return this.listeners.length;
  }
  openEditDiff(editId: string): void {
    this.calls.push(`diff ${editId}`);
  }
  revealEdit(editId: string): void {
    this.calls.push(`reveal ${editId}`);
  }
  openNote(sha: string): void {
    this.calls.push(`note ${sha}`);
  }
  openFile(file: string): void {
    if (file === 'missing.ts') throw new Error('no such file');
    this.calls.push(`file ${file}`);
  }
}

/** Let pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
