/**
 * The sanitiser of operators' rich text (lib/rich-text.ts): the elements the console's editor
 * writes survive as they are; no script, event handler, style, frame, SVG or dangerous URL does,
 * however it is spelt (entities, control characters, case, nesting, broken markup); the result is
 * stable when cleaned again; a text over the size limit is refused with its translated hint.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors';
import { RICH_TEXT_MAX_LENGTH, richTextToPlain, sanitizeRichText } from '../src/lib/rich-text';

/** What must never appear in a cleaned text, whatever went in. */
function assertHarmless(html: string): void {
  const lower = html.toLowerCase();
  for (const bad of [
    '<script',
    '<iframe',
    '<svg',
    '<math',
    '<object',
    '<embed',
    '<style',
    '<form',
    '<input',
    '<meta',
    '<link',
    '<base',
    'javascript:',
    'vbscript:',
    'data:text',
    'style=',
    'srcdoc',
    'formaction',
  ])
    expect(lower, `${bad} in ${html}`).not.toContain(bad);
  // No attribute that starts with "on" (event handlers) on any element.
  expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
}

const VECTORS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=x onerror=alert(1)>',
  '<img src="https://ok.example/a.png" onerror="alert(1)" onload=alert(2)>',
  '<IMG SRC="javascript:alert(1)">',
  '<img src="jav&#x09;ascript:alert(1)">',
  '<img src=" javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="java&Tab;script:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example/">x</a>',
  '<a href="https://ok.example/" onclick="alert(1)" onmouseover=alert(2)>x</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<p style="width: expression(alert(1))">x</p>',
  '<style>@import "https://evil.example/x.css";</style>',
  '<div style="behavior: url(x.htc)">x</div>',
  '<form action="https://evil.example"><input name=a><button formaction="javascript:alert(1)">b</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:/">',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<p title="</p><script>alert(1)</script>">x</p>',
  '<p <script>alert(1)</script>>x</p>',
  '<p>unclosed <strong>bold <em>both</p>',
  '<!--<script>alert(1)</script>-->text',
  '<![CDATA[<script>alert(1)</script>]]>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '<span class="x" id="y" data-x="1" onpointerenter=alert(1)>span</span>',
];

describe('sanitizeRichText', () => {
  it('keeps what the editor writes', () => {
    const html =
      '<h1>Title</h1><h2>Sub</h2><h3>Three</h3><h4>Four</h4>' +
      '<p>Some <strong>bold</strong>, <em>italic</em>, <u>under</u>, <s>struck</s> and <code>code</code>.<br />Line</p>' +
      '<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol>' +
      '<blockquote><p>quote</p></blockquote><pre><code>x = 1</code></pre><hr />' +
      '<p><span>span</span> <a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">link</a> ' +
      '<a href="mailto:help@example.com" rel="noopener noreferrer">mail</a></p>' +
      '<p><img src="https://example.com/a.png" alt="a picture" /></p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('renames the legacy tags of pasted text', () => {
    expect(sanitizeRichText('<b>b</b><i>i</i><strike>s</strike><del>d</del>')).toBe(
      '<strong>b</strong><em>i</em><s>s</s><s>d</s>',
    );
  });

  it('forces rel on every link and keeps only _blank as target', () => {
    expect(sanitizeRichText('<a href="https://x.example" target="_top" rel="opener">x</a>')).toBe(
      '<a href="https://x.example" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="https://x.example" target="_blank">x</a>')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it('drops links that are not absolute http(s) or mailto, keeping their text', () => {
    for (const href of ['/relative', '#top', '//evil.example', 'ftp://x.example', 'tel:123'])
      expect(sanitizeRichText(`<a href="${href}">t</a>`), href).toBe(
        '<a rel="noopener noreferrer">t</a>',
      );
  });

  it('keeps images from http(s) or PNG, JPEG and WebP data URLs only', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(sanitizeRichText(`<img src="${png}" alt="x">`)).toBe(`<img src="${png}" alt="x" />`);
    expect(sanitizeRichText('<img src="data:image/webp;base64,UklGRg==">')).toBe(
      '<img src="data:image/webp;base64,UklGRg==" />',
    );
    for (const src of [
      'data:image/gif;base64,R0lGOD==',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:image/png,<svg>',
      '/local.png',
      'x',
    ])
      expect(sanitizeRichText(`<p><img src="${src}">after</p>`), src).toBe('<p>after</p>');
  });

  it.each(VECTORS)('leaves nothing that runs: %s', (vector) => {
    const cleaned = sanitizeRichText(vector);
    assertHarmless(cleaned);
    // Cleaning again changes nothing: what is stored is what is read back and saved again.
    expect(sanitizeRichText(cleaned)).toBe(cleaned);
  });

  it('escapes text that looks like markup instead of dropping it', () => {
    expect(sanitizeRichText('<p>1 &lt; 2 &amp;&amp; &lt;script&gt;</p>')).toBe(
      '<p>1 &lt; 2 &amp;&amp; &lt;script&gt;</p>',
    );
    expect(sanitizeRichText('<p>a <script>alert(1)</script>b</p>')).toBe('<p>a b</p>');
  });

  it('refuses a text over the limit with its hint and the limit as parameter', () => {
    expect(() => sanitizeRichText('x'.repeat(RICH_TEXT_MAX_LENGTH))).not.toThrow();
    let error: unknown;
    try {
      sanitizeRichText('x'.repeat(RICH_TEXT_MAX_LENGTH + 1));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      key: 'hint_richTextTooLong',
      status: 400,
      params: [RICH_TEXT_MAX_LENGTH],
    });
  });
});

describe('richTextToPlain', () => {
  it('reads the text with blocks apart and entities decoded once', () => {
    expect(
      richTextToPlain('<h2>Title</h2><p>a &amp;lt; b</p><ul><li>one</li><li>two</li></ul>'),
    ).toBe('Title a &lt; b one two');
    expect(richTextToPlain('<p>x<script>alert(1)</script></p>')).toBe('x');
  });
});
