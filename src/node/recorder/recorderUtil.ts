import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';

/**
 * How often the recorder changed the journal's pairs or prompts (a prompt journaled, a pair
 * written, a commit consumed): readers that cache what they read from the journal compare it.
 */
export class JournalGeneration {
  private n = 0;
  get value(): number {
    return this.n;
  }
  bump(): void {
    this.n++;
  }
}

export function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** An error's message without stack (git stderr excerpts, fs codes — never prompt text). */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 300);
}
