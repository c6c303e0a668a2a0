import * as vscode from 'vscode';
import type { Logger } from '../core/ports';

/** The single "Agent Note" LogOutputChannel; users change verbosity with "Developer: Set Log Level". */
export class HostLogger implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(private readonly scope = '') {
    this.channel = vscode.window.createOutputChannel('Agent Note', { log: true });
  }

  /** A logger writing to the same channel with a `[Component]` prefix. */
  child(component: string): Logger {
    const ch = this.channel;
    const p = `[${component}] `;
    return {
      trace: (m, ...a) => ch.trace(p + m, ...a),
      debug: (m, ...a) => ch.debug(p + m, ...a),
      info: (m, ...a) => ch.info(p + m, ...a),
      warn: (m, ...a) => ch.warn(p + m, ...a),
      error: (m, ...a) => ch.error(p + m, ...(a as [])),
    };
  }

  trace(m: string, ...a: unknown[]): void {
    this.channel.trace(this.scope + m, ...a);
  }
  debug(m: string, ...a: unknown[]): void {
    this.channel.debug(this.scope + m, ...a);
  }
  info(m: string, ...a: unknown[]): void {
    this.channel.info(this.scope + m, ...a);
  }
  warn(m: string, ...a: unknown[]): void {
    this.channel.warn(this.scope + m, ...a);
  }
  error(m: string, ...a: unknown[]): void {
    this.channel.error(this.scope + m, ...(a as []));
  }

  dispose(): void {
    this.channel.dispose();
  }
}
