/**
 * Adds `value` to a Set used to drop repeated records, keeping memory bounded over long sessions:
 * past `max` entries the oldest half is forgotten (a Set iterates in insertion order). Repeats that
 * matter (split messages, re-delivered lines) are of recent records.
 */
export function addBounded<T>(set: Set<T>, value: T, max: number): void {
  set.add(value);
  if (set.size <= max) return;
  let drop = set.size - Math.floor(max / 2);
  for (const v of set) {
    if (drop-- <= 0) break;
    set.delete(v);
  }
}

/**
 * A 53-bit hash of `s` (cyrb53): a compact stand-in for long keys in de-duplication sets (a number
 * instead of a path-sized string per entry). Collisions are possible but vanishingly rare at the
 * sizes these sets are bounded to.
 */
export function hashKey(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A copy of `s` that shares no memory with the string it was cut from (a slice keeps its whole parent alive). */
export function detached(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
