import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { systemClock } from '../core/ports';

/** A warning or error kept for "Agent Note: Report Issue" (scrubbed there before it is shown). */
export interface RecentProblem {
  time: number;
  level: 'warn' | 'error';
  text: string;
}

/** How many recent warnings and errors are kept. */
const recentLimit = 20;

/**
 * The single "Agent Note" LogOutputChannel with levels; users change verbosity with "Developer: Set
 * Log Level…" (Agent Note). Prompts and responses are never logged above trace. The last warnings
 * and errors are also kept in memory for the issue report.
 */
export class HostLogger implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly problems: RecentProblem[] = [];

  constructor(private readonly scope = '') {
    this.channel = vscode.window.createOutputChannel('Agent Note', { log: true });
  }

  /** The last warnings and errors, oldest first. */
  get recentProblems(): readonly RecentProblem[] {
    return this.problems;
  }

  private keep(level: RecentProblem['level'], text: string): void {
    this.problems.push({ time: systemClock.now(), level, text });
    if (this.problems.length > recentLimit) this.problems.shift();
  }

  /** A logger writing to the same channel with a `[Component]` prefix. */
  child(component: string): Logger {
    const ch = this.channel;
    const p = `[${component}] `;
    return {
      trace: (m, ...a) => ch.trace(p + m, ...a),
      debug: (m, ...a) => ch.debug(p + m, ...a),
      info: (m, ...a) => ch.info(p + m, ...a),
      warn: (m, ...a) => {
        this.keep('warn', p + m);
        ch.warn(p + m, ...a);
      },
      error: (m, ...a) => {
        this.keep('error', p + m);
        ch.error(p + m, ...(a as []));
      },
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
    this.keep('warn', this.scope + m);
    this.channel.warn(this.scope + m, ...a);
  }
  error(m: string, ...a: unknown[]): void {
    this.keep('error', this.scope + m);
    this.channel.error(this.scope + m, ...(a as []));
  }

  dispose(): void {
    this.channel.dispose();
  }
}
