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
