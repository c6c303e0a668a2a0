/**
 * Test oracles for the escaping tests: a real CommonMark renderer (markdown-it, a pinned dev
 * dependency of @vscode/vsce) and VS Code's `$(icon)` pattern (vs/base/browser/ui/iconLabel:
 * `(\\)?\$\((name(~modifier)?)\)`, applied to rendered labels and Markdown HTML).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (opts: Record<string, unknown>) => {
  render(src: string): string;
  renderInline(src: string): string;
};

const cache = new Map<string, InstanceType<typeof MarkdownIt>>();

/** A CommonMark renderer (GFM tables and strikethrough are on by default in markdown-it). */
export function markdown(opts: { html?: boolean; linkify?: boolean } = {}): InstanceType<typeof MarkdownIt> {
  const key = JSON.stringify(opts);
  let md = cache.get(key);
  if (!md) {
    md = new MarkdownIt({ html: opts.html ?? false, linkify: opts.linkify ?? false });
    // GFM (GitHub, VS Code's marked) links `https://…`, `www.…` and e-mails, not bare domains
    (md as unknown as { linkify: { set(o: Record<string, boolean>): void } }).linkify.set({ fuzzyLink: false });
    cache.set(key, md);
  }
  return md;
}

/** Every `$(name)` VS Code would see in a label, and whether it is escaped (`\$(name)` shows as text). */
export function vscodeIconMatches(text: string): { text: string; escaped: boolean }[] {
  return [...text.matchAll(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g)].map((m) => ({ text: m[0], escaped: m[1] !== undefined }));
}
