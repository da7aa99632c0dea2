/**
 * Rich text that operators write (site messages, Q&A answers, pages, activities, news) is cleaned
 * here, once, on the server, before it is stored: what the app renders as HTML is only ever the
 * output of this function. The console's editor (TipTap) produces a small known set of elements;
 * the allow-list below is that set and nothing more.
 *
 * - Tags: p, br, strong, em, u, s, h1–h4, ul, ol, li, blockquote, a, img, span, hr, code, pre (and
 *   b/i/strike/del, which are turned into their modern names). Any other tag is dropped, keeping
 *   its text, except script, style, iframe, svg, math and the like, whose content goes too.
 * - Attributes: a href (absolute http(s) or mailto only; the value is compared as the browser will
 *   read it, after entity decoding), a target (only `_blank`), and every link gets
 *   rel="noopener noreferrer"; img src (absolute http(s), or a base64 data URL of PNG, JPEG or
 *   WebP) and alt. No style, class, id or event handler survives on any element; an img without
 *   an acceptable src is dropped.
 * - Size: an input longer than `RICH_TEXT_MAX_LENGTH` characters is refused with
 *   `hint_richTextTooLong` before it is parsed, so the parser's work is bounded.
 *
 * Cleaning is idempotent: what is read back and saved again is stored unchanged.
 */
import sanitizeHtml from 'sanitize-html';
import { AppError } from './errors.js';

/** Largest rich text accepted, in characters of HTML (a pasted data-URL image counts too). */
export const RICH_TEXT_MAX_LENGTH = 200_000;

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
  'img',
  'span',
  'hr',
  'code',
  'pre',
];

/** Elements whose content is dropped with them (not only the tags). */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'object',
  'embed',
  'template',
  'title',
  'xmp',
  'svg',
  'math',
  'head',
];

const LINK_URL = /^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i;
const IMAGE_URL = /^https?:\/\/[^\s]+$/i;
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/i;

function linkHref(value: string | undefined): string | undefined {
  if (value === undefined || !LINK_URL.test(value)) return undefined;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

function imageSource(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (IMAGE_DATA_URL.test(value)) return value;
  if (!IMAGE_URL.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', { name: 'target', multiple: false, values: ['_blank'] }, 'rel'],
    img: ['src', 'alt'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  transformTags: {
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
    a: (tagName, attribs) => {
      const next: sanitizeHtml.Attributes = {};
      const href = linkHref(attribs.href);
      if (href !== undefined) next.href = href;
      if (attribs.target === '_blank') next.target = '_blank';
      next.rel = 'noopener noreferrer';
      return { tagName, attribs: next };
    },
    img: (tagName, attribs) => {
      const next: sanitizeHtml.Attributes = {};
      const src = imageSource(attribs.src);
      if (src !== undefined) next.src = src;
      if (attribs.alt !== undefined) next.alt = attribs.alt;
      return { tagName, attribs: next };
    },
  },
  // An image with nothing to show is not kept as an empty element.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * The stored form of an operator's rich text: the allow-listed HTML, trimmed. Refuses a text
 * longer than `RICH_TEXT_MAX_LENGTH` (400 `hint_richTextTooLong`, with the limit as parameter).
 */
export function sanitizeRichText(html: string): string {
  if (html.length > RICH_TEXT_MAX_LENGTH) {
    throw new AppError('hint_richTextTooLong', 400, [RICH_TEXT_MAX_LENGTH]);
  }
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The plain text of a cleaned rich text (search, previews, notifications), whitespace folded. */
export function richTextToPlain(html: string): string {
  // Block ends become spaces, so paragraphs do not run into each other.
  const spaced = html.replace(/<(br|hr|\/p|\/h[1-4]|\/li|\/blockquote|\/pre)\b[^>]*>/gi, '$& ');
  return sanitizeHtml(spaced, {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: DROPPED_WITH_CONTENT,
  })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
