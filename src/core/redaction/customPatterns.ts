/**
 * User-supplied redaction patterns (regex sources from a setting). Each valid source becomes a
 * {@link SecretPattern} with id `custom-<n>` (n = 1-based position in the list, so ids stay stable
 * when an earlier entry is invalid); invalid ones are reported, never thrown.
 */
import { z } from 'zod';
import type { SecretPattern } from './secretPatterns';

export type CustomPatternErrorReason = 'notAString' | 'empty' | 'invalidFlags' | 'invalidSyntax' | 'matchesEmpty' | 'nestedQuantifier';

export interface CustomPatternError {
  /** 0-based position in the given list. */
  readonly index: number;
  readonly id: string;
  readonly reason: CustomPatternErrorReason;
  readonly message: string;
}

export interface CompiledCustomPatterns {
  readonly patterns: SecretPattern[];
  readonly errors: CustomPatternError[];
}

const sourceSchema = z.string();
const allowedFlags = /^[imsu]*$/;

/**
 * Finds a quantified group that itself contains an unbounded quantifier, e.g. `(a+)+`, `(\w*)*`,
 * `(x+y)+` — the classic catastrophic-backtracking shape. A heuristic: it does not catch
 * overlapping alternations such as `(a|a)*`.
 */
export function hasNestedQuantifier(source: string): boolean {
  const stack: boolean[] = [false];
  let i = 0;
  const quantifierAt = (at: number): { unbounded: boolean; repeats: boolean; length: number } | undefined => {
    const c = source[at];
    if (c === '*' || c === '+') return { unbounded: true, repeats: true, length: 1 };
    if (c === '?') return { unbounded: false, repeats: false, length: 1 };
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
      if (!m) return undefined;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      return { unbounded: max === Infinity, repeats: max > 1, length: m[0].length };
    }
    return undefined;
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
    } else if (c === '[') {
      i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      stack.push(false);
      i++;
      continue;
    } else if (c === ')') {
      const inner = stack.length > 1 ? (stack.pop() as boolean) : false;
      i++;
      const q = quantifierAt(i);
      if (q && q.repeats && inner) return true;
      if (inner || q?.unbounded) stack[stack.length - 1] = true;
      if (q) i += q.length;
      continue;
    } else {
      i++;
    }
    const q = quantifierAt(i);
    if (q) {
      if (q.unbounded) stack[stack.length - 1] = true;
      i += q.length;
      if (source[i] === '?') i++;
    }
  }
  return false;
}

/**
 * Compiles user patterns. An entry is a regex source (`ghp_[a-z]+`) or a literal `/source/flags`
 * (flags among i, m, s, u; `g` and `d` are always added). A named group `secret` is what gets
 * redacted; without it, the whole match.
 */
export function compileCustomPatterns(sources: readonly unknown[]): CompiledCustomPatterns {
  const patterns: SecretPattern[] = [];
  const errors: CustomPatternError[] = [];
  sources.forEach((raw, index) => {
    const id = `custom-${index + 1}`;
    const fail = (reason: CustomPatternErrorReason, message: string): void => {
      errors.push({ index, id, reason, message });
    };
    const parsed = sourceSchema.safeParse(raw);
    if (!parsed.success) return fail('notAString', 'the pattern is not a string');
    let source = parsed.data;
    let flags = '';
    const literal = /^\/([\s\S]+)\/([a-z]*)$/.exec(source);
    if (literal) {
      source = literal[1];
      flags = literal[2];
      if (!allowedFlags.test(flags) || new Set(flags).size !== flags.length)
        return fail('invalidFlags', `unsupported flags "${flags}" (allowed: i, m, s, u)`);
    }
    if (source.trim().length === 0) return fail('empty', 'the pattern is empty');
    let regex: RegExp;
    try {
      regex = new RegExp(source, `${flags}gd`);
    } catch (e) {
      return fail('invalidSyntax', e instanceof Error ? e.message : 'invalid regular expression');
    }
    if (hasNestedQuantifier(source))
      return fail('nestedQuantifier', 'nested quantifier (a repeated group containing * or +) can backtrack catastrophically');
    regex.lastIndex = 0;
    if (regex.exec('') !== null) return fail('matchesEmpty', 'the pattern matches the empty string');
    const hasSecretGroup = /\(\?<secret>/.test(source);
    patterns.push({
      id,
      description: `custom pattern #${index + 1}`,
      regex,
      secretGroup: hasSecretGroup ? 'secret' : 0,
    });
  });
  return { patterns, errors };
}
