/**
 * What a reader gets of a Markdown field: its text (formatting reduced away,
 * entities decoded, raw HTML parsed, alt and title texts included) and every
 * link target it carries (links, images, definitions, raw HTML `href`/`src`
 * and kin, autolinks and URL-like text). Moderation compares these rather
 * than the source, which hides words behind markup and entities.
 *
 * The walks keep their own stack instead of recursing, and a parse failure
 * falls back to the source as text: moderation must judge any input that
 * passed validation, however deep or odd, and never throw.
 * @module
 */
import type { Nodes as HastNode } from 'hast';
import type { Nodes as MdastNode } from 'mdast';
import { parseHtmlFragment, parseMarkdown } from '../body/processors.ts';

/** A field reduced to what readers see and where its links lead. */
export interface PublicText {
  /** The visible text; block boundaries become spaces, inline markup joins words as rendered. */
  readonly text: string;
  /** Link targets as written (not yet resolved). */
  readonly links: readonly string[];
  /** Text only readers of the source see (HTML comments), kept apart so it does not split the words around it. */
  readonly hidden: readonly string[];
}

/** mdast nodes that sit inside a line: no space is put around them. */
const MDAST_INLINE = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'link', 'linkReference', 'break', 'html']);
/** HTML elements that sit inside a line. */
const HTML_INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);
/** Attributes (hast property names) holding a link target. */
const URL_PROPERTIES = ['href', 'src', 'action', 'formAction', 'poster', 'cite', 'data', 'background', 'longDesc', 'xLinkHref', 'ping', 'manifest', 'codeBase'];
/** Attributes whose text readers see or hear. */
const TEXT_PROPERTIES = ['alt', 'title', 'ariaLabel', 'placeholder', 'label', 'value', 'content'];
/**
 * URL-looking text: a scheme or `//` (either slash) before a host, or `www.`.
 * Catches targets no parser turns into links, which a reader may still follow or copy.
 */
const URL_IN_TEXT = /(?:\b[a-z][a-z0-9+.-]*:[\\/]{0,2}|[\\/]{2}|\bwww\.)[^\s<>"'`{}|^[\]]+/gi;
/** Punctuation that ends a sentence rather than a URL. */
const TRAILING_PUNCTUATION = /[.,;:!?)]+$/;

/** Link targets written as plain text. */
export function urlsInText(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const candidate = match[0].replace(TRAILING_PUNCTUATION, '');
    // "note: this" is a word and a colon, not a link: a scheme needs something that looks like a host after it.
    if (/^[a-z][a-z0-9+.-]*:[^\\/]/i.test(candidate) && !/^(?:https?|ftp|mailto|wss?):/i.test(candidate)) continue;
    found.push(candidate);
  }
  return found;
}

function stringProperty(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return [value.join(' ')];
  return [];
}

/** Reduces an HTML fragment to its text and link targets. Never throws. */
export function htmlPublicText(html: string): PublicText {
  const links: string[] = [];
  let tree;
  try {
    tree = parseHtmlFragment(html);
  } catch {
    return { text: html, links: urlsInText(html), hidden: [] };
  }
  const out: string[] = [];
  const hidden: string[] = [];
  const stack: (HastNode | string)[] = [tree];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (item.type === 'text') {
      out.push(item.value);
      links.push(...urlsInText(item.value));
    } else if (item.type === 'comment') {
      // Comments reach readers of the Markdown source, but do not split the words around them.
      hidden.push(item.value);
    } else if (item.type === 'element') {
      const props = item.properties;
      for (const name of URL_PROPERTIES) links.push(...stringProperty(props[name]));
      for (const candidate of stringProperty(props['srcSet'])) {
        for (const part of candidate.split(',')) links.push(part.trim().split(/\s+/)[0] ?? '');
      }
      const attributeTexts = TEXT_PROPERTIES.flatMap((name) => stringProperty(props[name]));
      if (attributeTexts.length > 0) out.push(' ', attributeTexts.join(' '), ' ');
      const inline = HTML_INLINE.has(item.tagName);
      if (!inline) out.push(' ');
      if (!inline) stack.push(' ');
      // <template> keeps its children in `content`.
      const children = item.tagName === 'template' && item.content ? item.content.children : item.children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    } else if ('children' in item) {
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]!);
    }
  }
  return { text: out.join(''), links: links.filter((l) => l !== ''), hidden };
}

/**
 * Reduces a Markdown (CommonMark + GFM, raw HTML allowed) field to its text
 * and link targets. Plain-text fields go through here too: entities and
 * markup in a title are decoded wherever the title is rendered. Never throws.
 * @example markdownPublicText('zz**block**marker [x](//spam.example/)').text // ' zzblockmarker x '
 */
export function markdownPublicText(markdown: string): PublicText {
  let tree;
  try {
    tree = parseMarkdown(markdown);
  } catch {
    return { text: markdown, links: urlsInText(markdown), hidden: [] };
  }
  const out: string[] = [];
  const links: string[] = [];
  const hidden: string[] = [];
  // A frame remembers whether it sits inside a link, whose text is not a second link.
  const stack: ({ node: MdastNode; inLink: boolean } | string)[] = [{ node: tree, inLink: false }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { node, inLink } = item;
    switch (node.type) {
      case 'text':
        out.push(node.value);
        if (!inLink) links.push(...urlsInText(node.value));
        continue;
      case 'inlineCode':
        out.push(node.value);
        continue;
      case 'code':
        out.push(' ', node.value, ' ');
        continue;
      case 'html': {
        const html = htmlPublicText(node.value);
        out.push(html.text);
        links.push(...html.links);
        hidden.push(...html.hidden);
        continue;
      }
      case 'image':
        links.push(node.url);
        out.push(' ', node.alt ?? '', ' ', node.title ?? '', ' ');
        continue;
      case 'imageReference':
        out.push(' ', node.alt ?? '', ' ');
        continue;
      case 'definition':
        links.push(node.url);
        out.push(' ', node.title ?? '', ' ');
        continue;
      case 'link':
        links.push(node.url);
        if (node.title) out.push(' ', node.title, ' ');
        break;
      case 'break':
        out.push(' ');
        continue;
      default:
        break;
    }
    if (!('children' in node)) continue;
    const inline = MDAST_INLINE.has(node.type);
    if (!inline) {
      out.push(' ');
      stack.push(' ');
    }
    const childInLink = inLink || node.type === 'link' || node.type === 'linkReference';
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]! as MdastNode, inLink: childInLink });
  }
  return { text: out.join(''), links: links.filter((l) => l.trim() !== ''), hidden };
}
