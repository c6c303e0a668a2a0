import * as assert from 'node:assert/strict';
import {
  cutText,
  defangMarkdown,
  escapeCodicons,
  escapeHtml,
  escapeMarkdown,
  githubInline,
  githubQuote,
  githubTableCell,
  htmlCommentText,
  markdownCodeSpan,
  notificationText,
  plainLabel,
  singleLine,
} from '../../../src/core/text/escape';
import { allInOne, forbiddenTags, hostileStrings } from '../hostile/corpus';
import { markdown, vscodeIconMatches } from './markdownOracle';

const corpus = { ...hostileStrings(), allInOne: allInOne() };

/** What markdown-it prints for text (its escapeHtml). */
const htmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('escaping helpers (src/core/text/escape.ts) × the hostile corpus', () => {
  for (const [name, s] of Object.entries(corpus)) {
    describe(name, () => {
      it('singleLine: one line, no controls, no bidi overrides', () => {
        const out = singleLine(s);
        assert.doesNotMatch(out, /[\r\n\v\f\u0085\u2028\u2029]/);
        // eslint-disable-next-line no-control-regex
        assert.doesNotMatch(out, /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
        assert.equal(out, out.trim());
      });

      it('escapeMarkdown (VS Code MarkdownString): renders back as exactly the text, no markup, no icon', () => {
        const src = escapeMarkdown(s);
        // an oracle CommonMark renderer with raw HTML and bare-URL links on: only a paragraph of text comes out
        assert.equal(markdown({ html: true, linkify: true }).render(src), `<p>${htmlText(singleLine(s))}</p>\n`, src);
        // `$` never appears literally, so VS Code's pass over the rendered HTML finds no `$(icon)`
        assert.ok(!src.includes('$'), src);
        assert.equal(escapeMarkdown(s, 50).length <= escapeMarkdown(s).length, true);
      });

      it('plainLabel: every `$(name)` is escaped for the label renderer', () => {
        const out = plainLabel(s);
        for (const m of vscodeIconMatches(out)) assert.ok(m.escaped, `unescaped icon ${m.text} in ${out}`);
        assert.doesNotMatch(out, /[\r\n\u2028\u2029]/);
      });

      it('escapeHtml: no markup, no attribute break-out', () => {
        const out = escapeHtml(s);
        assert.doesNotMatch(out, /[<>"']/);
        assert.equal(out.replace(/&(amp|lt|gt|quot|#39);/g, ''), out.replace(/&(amp|lt|gt|quot|#39);/g, '').replace(/[<>"']/g, ''));
      });

      it('markdownCodeSpan: one code span holding exactly the text', () => {
        const code = markdownCodeSpan(s);
        const expected = singleLine(s);
        if (!expected) return assert.equal(code, '');
        assert.equal(markdown({ html: true, linkify: true }).renderInline(code), `<code>${htmlText(expected)}</code>`, code);
      });

      it('githubInline / githubQuote: no raw HTML, no image, no hidden link', () => {
        for (const src of [githubInline(s), githubQuote(s), `> ${defangMarkdown(s).split('\n').join('\n> ')}`]) {
          const html = markdown({ html: true, linkify: false }).render(src);
          assert.doesNotMatch(html, forbiddenTags, `${src}\n→ ${html}`);
          assert.doesNotMatch(html, /<!--/, html);
          // GitHub turns bare URLs into links: allowed only as visible URLs (text = target)
          const linked = markdown({ html: true, linkify: true }).render(src);
          for (const m of linked.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) {
            assert.ok(m[1].endsWith(m[2].replace(/^mailto:/, '')) || decodeURI(m[1]).endsWith(m[2]), `hidden link ${m[0]}`);
          }
          assert.doesNotMatch(linked.replace(/<a href="[^"]*">[^<]*<\/a>/g, ''), forbiddenTags);
        }
      });

      it('githubQuote: every line stays inside the block quote', () => {
        const html = markdown({ html: true, linkify: false }).render(`${githubQuote(s)}\n\nAFTER`);
        assert.ok(html.trimEnd().endsWith('<p>AFTER</p>'), html);
        assert.equal((html.match(/<blockquote>/g) ?? []).length, (html.match(/<\/blockquote>/g) ?? []).length);
        assert.ok(html.startsWith('<blockquote>'), html);
      });

      it('githubTableCell: stays one cell of one row', () => {
        const table = `| h | k |\n|---|---|\n| ${githubTableCell(s)} | end |\n`;
        const html = markdown({ html: true, linkify: false }).render(table);
        assert.equal((html.match(/<tr>/g) ?? []).length, 2, html);
        assert.equal((html.match(/<td>/g) ?? []).length, 2, html);
        assert.ok(html.includes('<td>end</td>'), html);
        assert.doesNotMatch(html, forbiddenTags);
      });

      it('htmlCommentText: the comment cannot end early', () => {
        const html = markdown({ html: true }).render(`<!-- x\n${htmlCommentText(singleLine(s))}\n-->\n\nAFTER\n`);
        const end = html.indexOf('-->');
        assert.equal(end, html.lastIndexOf('-->'), html);
        assert.ok(html.startsWith('<!-- x'), html);
        assert.ok(html.slice(end).includes('<p>AFTER</p>'), html);
      });
    });
  }

  it('examples', () => {
    assert.equal(escapeMarkdown('a\n\n![x](https://e/x.png)'), 'a \\!\\[x\\]\\(https\\://e/x.png\\)');
    assert.equal(escapeMarkdown('claude-opus-4-6 src/a.ts'), 'claude-opus-4-6 src/a.ts', 'ordinary names stay readable');
    assert.equal(escapeMarkdown('- item'), '\\- item');
    assert.equal(escapeMarkdown('12. item'), '12\\. item');
    assert.equal(escapeMarkdown('see www.evil.example or a@evil.example'), 'see www\\.evil.example or a\\@evil.example');
    assert.equal(escapeMarkdown('$(zap) <span>'), '&#36;\\(zap\\) \\<span\\>');
    assert.equal(escapeCodicons('$(zap) $(sync~spin) $(no space) \\$(x)'), '\\$(zap) \\$(sync~spin) $(no space) \\\\$(x)');
    assert.equal(markdownCodeSpan('a`b'), '``a`b``');
    assert.equal(markdownCodeSpan('`x`'), '`` `x` ``');
    assert.equal(markdownCodeSpan('two\nlines'), '`two lines`');
    assert.equal(defangMarkdown('</details> ![i](u) [l](u) a < b <3 x<y'), '&lt;/details> !\\[i\\](u) [l\\](u) a < b <3 x&lt;y');
    assert.equal(githubTableCell('a|b\nc'), 'a\\|b c');
    assert.equal(notificationText('bad [x](command:evil) $(zap)\nnext'), 'bad [x] (command:evil) \\$(zap) next');
    assert.equal(htmlCommentText('a -- b --- <c>'), 'a - - b - - - &lt;c&gt;');
    assert.equal(singleLine('  a\r\n\tb\u2028c\u202e  '), 'a b c');
    assert.equal(cutText('😀😀😀', 2), '😀…');
    assert.equal(singleLine('abcdef', 4), 'abc…');
  });
});
