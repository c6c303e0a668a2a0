/**
 * Shannon entropy of a string in bits per character (0 for the empty string).
 * A random base62 string of 32 characters scores about 4.5–4.9, English words about 2.5–3.5,
 * a 40-character hex SHA about 3.6–3.9.
 */
export function shannonEntropy(text: string): number {
  const n = text.length;
  if (n === 0) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const ch = text[i];
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let bits = 0;
  for (const c of counts.values()) {
    const p = c / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}
