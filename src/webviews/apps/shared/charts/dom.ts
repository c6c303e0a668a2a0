/** The charts' only DOM code (kept apart so the pure modules type-check and run in Node). */

/** Sets the width of every `[data-ratio]` fill under `root` (CSSOM writes are allowed by the CSP; style attributes are not). */
export function applyBarWidths(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-ratio]')) el.style.width = `${Number(el.dataset.ratio) || 0}%`;
}
