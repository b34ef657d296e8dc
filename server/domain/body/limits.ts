/**
 * Linear-time checks run on a body before any parser sees it.
 *
 * remark/micromark and the hast/mdast tools are fine on real articles but
 * some inputs cost them time quadratic (or worse) in their size, and deep
 * nesting makes their recursive walks overflow the stack: `"*a"` × 100,000
 * took minutes, 10,000 nested `<div>` a "Maximum call stack size exceeded".
 * One pass over the text here bounds what drives those costs (size,
 * nesting, delimiters and brackets per block and per body, containers
 * opened, table columns) so that what reaches the parsers costs time
 * roughly linear in its size, and a 1 MB body about what 1 MB of plain
 * words costs. The limits are
 * far above what articles use (docs/CONTENT.md, "Body limits"); the time
 * limit of the body pool is the backstop for whatever slips between them.
 *
 * The checks are deliberately coarse: they never parse, so they may count
 * a `*` inside code as a delimiter. They over-count, never under-count.
 * @module
 */

import { SEGMENT_MAX_CHARS, SEGMENT_TARGET_CHARS, markdownDivision } from './markdown-segments.ts';

/** The limits, named as in error messages and docs/CONTENT.md. */
export const BODY_LIMITS = Object.freeze({
  /** Characters of content_markdown: the whole 20 MB request (`PRESSROOM_MAX_BODY_MB`'s default) may be one translation's. */
  markdownChars: 20 * 1024 * 1024,
  /** Characters of one part of a Markdown body (`markdown-segments.ts`): parsed on its own, so what it costs is bounded by it. */
  segmentChars: SEGMENT_MAX_CHARS,
  /** Characters of content_html (markup is verbose). */
  htmlChars: 2_000_000,
  /** Blockquote markers + list levels on one line of Markdown. */
  markdownDepth: 32,
  /** Open HTML elements inside each other (in content_html, or raw HTML in Markdown). */
  htmlDepth: 100,
  /** `*`, `_` and `~` in one paragraph, list item, heading or table row. */
  delimitersPerBlock: 500,
  /** `[` and `]` in one paragraph, list item, heading or table row. */
  bracketsPerBlock: 500,
  /** Backticks in one paragraph, list item, heading or table row (outside fenced code). */
  backticksPerBlock: 500,
  /** Column separators (`|`) on one line, i.e. about the cells of a table row. */
  tableColumns: 100,
  /** `*`, `_` and `~` per started million characters of body: each costs the inline parser far more than a letter. */
  delimitersPerBody: 20_000,
  /** `[` and `]` per started million characters of body (about 5,000 links). */
  bracketsPerBody: 10_000,
  /** Blockquote and list markers summed over all lines, per started million characters: each is re-read on every line it spans. */
  containerMarkers: 25_000,
  /** Blockquotes and lists opened in one part of the body: micromark closes each at a cost growing with the text before it in the same parse (quadratic). */
  containerBlocks: 500,
});

/** Millions of characters a body has started (at least one): the per-body counts and the time limit are allowed once per each. */
export function startedMillions(chars: number): number {
  return Math.max(1, Math.ceil(chars / 1_000_000));
}

/** Which limit a body went over. */
export type BodyLimitName = keyof typeof BODY_LIMITS;

/** A body over one of {@link BODY_LIMITS}: which, by how much, and what to do. */
export interface BodyLimitProblem {
  readonly limit: BodyLimitName;
  /** The value found (the first one over the limit). */
  readonly value: number;
  readonly max: number;
  /** 1-based line of the text where it was found (1 for size). */
  readonly line: number;
  /** A sentence for `details.fields`: what is over which limit, and how to fix it. */
  readonly message: string;
}

const ADVICE: Record<BodyLimitName, string> = {
  markdownChars: 'Split the article, or move long appendices to their own article.',
  segmentChars:
    'Start a paragraph (a line beginning with a letter, after a blank line) somewhere in it; a body is parsed in parts divided there. A reference definition ([label]: url) keeps the whole body one part: write such links inline ([text](url)). Line feeds, not carriage returns, end lines.',
  htmlChars: 'Split the article, or send it as content_markdown, which is more compact.',
  markdownDepth: 'Flatten the nested blockquotes or lists.',
  htmlDepth: 'Remove wrapper elements (nested div, span, b …) that carry no meaning.',
  delimitersPerBlock: 'Split the paragraph, or escape literal characters (\\*, \\_, \\~) or put them in a code block.',
  bracketsPerBlock: 'Split the paragraph, or escape literal brackets (\\[, \\]).',
  backticksPerBlock: 'Split the paragraph, or put the code in a fenced code block.',
  tableColumns: 'Split the table, or use a list.',
  delimitersPerBody: 'Split the article, or escape literal characters (\\*, \\_, \\~) or put them in code blocks.',
  bracketsPerBody: 'Split the article, or escape literal brackets (\\[, \\]).',
  containerMarkers: 'Split the article, or flatten long nested blockquotes and lists.',
  containerBlocks: 'Split the article, or merge adjacent blockquotes and lists.',
};

const WHAT: Record<BodyLimitName, string> = {
  markdownChars: "The body has {value} characters; at most {max} are accepted in one translation's content_markdown (the request's 20 MB limit is for the whole article, all translations together)",
  segmentChars: 'Line {line} begins {value} characters that cannot be divided (no paragraph starts after a blank line in them, or the body holds a reference definition, a carriage return, or an indented code fence or raw HTML block the division does not follow); at most {max} are accepted in one part',
  htmlChars: "The body has {value} characters; at most {max} are accepted in one translation's content_html (the request's 20 MB limit is for the whole article, all translations together)",
  markdownDepth: 'Line {line} nests {value} blockquotes/lists; at most {max} levels are accepted',
  htmlDepth: 'Line {line} nests {value} HTML elements; at most {max} levels are accepted',
  delimitersPerBlock: 'The block at line {line} has {value} emphasis characters (*, _, ~); at most {max} per paragraph are accepted',
  bracketsPerBlock: 'The block at line {line} has {value} square brackets; at most {max} per paragraph are accepted',
  backticksPerBlock: 'The block at line {line} has {value} backticks; at most {max} per paragraph are accepted',
  tableColumns: 'Line {line} has {value} table column separators (|); at most {max} are accepted',
  delimitersPerBody: 'The body has {value} emphasis characters (*, _, ~) by line {line}; at most {max} are accepted in a body of its length ({base} per started million characters)',
  bracketsPerBody: 'The body has {value} square brackets by line {line}; at most {max} are accepted in a body of its length ({base} per started million characters)',
  containerMarkers: 'The body has {value} blockquote/list markers by line {line}; at most {max} are accepted in a body of its length ({base} per started million characters)',
  containerBlocks: `The body opens {value} blockquotes and lists by line {line} (since the last paragraph after a blank line where it is divided into parts, about every ${SEGMENT_TARGET_CHARS.toLocaleString('en')} characters); at most {max} per part are accepted`,
};

function problem(limit: BodyLimitName, value: number, line: number, max: number = BODY_LIMITS[limit], detail = ''): BodyLimitProblem {
  const what = `${WHAT[limit]}${detail}`
    .replace('{value}', String(value))
    .replace('{max}', String(max))
    .replace('{line}', String(line))
    .replace('{base}', String(BODY_LIMITS[limit]));
  return { limit, value, max, line, message: `${what} (limit ${limit}). ${ADVICE[limit]}` };
}

const SPACE = 0x20;
const TAB = 0x09;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Length of a list marker (`-`, `+`, `*`, `1.`, `1)`) and the space after it
 * at `i`, or 0. A marker at the end of the line (an empty item) counts too.
 */
function listMarkerAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  let j = i;
  if (c === 0x2d || c === 0x2b || c === 0x2a) j = i + 1;
  else if (isDigit(c)) {
    while (j < end && j - i < 9 && isDigit(text.charCodeAt(j))) j++;
    const d = text.charCodeAt(j);
    if (d !== 0x2e && d !== 0x29) return 0;
    j++;
  } else return 0;
  if (j === end) return j - i;
  const after = text.charCodeAt(j);
  return after === SPACE || after === TAB ? j - i + 1 : 0;
}

/** The container prefix of one line, as {@link lineDepth} reads it. */
interface LineContainers {
  /** Blockquote and list levels (see {@link lineDepth}). */
  depth: number;
  /** Index of the first character after the prefix. */
  content: number;
  /** Blockquote markers (`>`) in the prefix. */
  quotes: number;
  /** List markers in the prefix. */
  markers: number;
}

/**
 * Container depth of one line: blockquote markers and list markers at its
 * start, plus one level per two columns of indentation before a list marker
 * (nested lists are written by indenting).
 */
function lineDepth(text: string, start: number, end: number): LineContainers {
  let i = start;
  let quotes = 0;
  let columns = 0;
  let markers = 0;
  for (;;) {
    const c = text.charCodeAt(i);
    if (i < end && (c === SPACE || c === TAB)) {
      columns += c === TAB ? 4 : 1;
      i++;
    } else if (i < end && c === 0x3e) {
      quotes++;
      i++;
    } else {
      const marker = i < end ? listMarkerAt(text, i, end) : 0;
      if (marker === 0) break;
      markers++;
      i += marker;
    }
  }
  return { depth: quotes + markers + (markers > 0 ? Math.floor(columns / 2) : 0), content: i, quotes, markers };
}

// Elements that never hold children, and ones the HTML parser closes by
// opening another of their kind (so they do not nest by repetition).
const VOID_OR_SELF_CLOSING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'td', 'th', 'tr', 'option', 'optgroup', 'rb', 'rt', 'rp',
]);

/**
 * Tracks how deeply HTML elements are open, over one or more chunks of text.
 * Counts `<name` as an open and `</name` as a close (of the innermost), so
 * an unclosed tag counts until the end: coarse, and never lower than what
 * the parser builds.
 */
class HtmlDepth {
  depth = 0;
  max = 0;
  maxLine = 1;
  // Position of the next `<` at or after the last search: scans move forward only, so searching the rest
  // of the text again for every line (quadratic on a text of many lines without `<`) is never needed.
  private nextLt = -1;

  private next(text: string, from: number): number {
    if (this.nextLt !== Infinity && this.nextLt < from) {
      const found = text.indexOf('<', from);
      this.nextLt = found === -1 ? Infinity : found;
    }
    return this.nextLt;
  }

  scan(text: string, start: number, end: number, line: number): void {
    let i = this.next(text, start);
    while (i < end) {
      const closing = text.charCodeAt(i + 1) === 0x2f;
      let j = closing ? i + 2 : i + 1;
      const nameStart = j;
      while (j < end && isNameChar(text.charCodeAt(j))) j++;
      // The tag ends at the first `>` outside quotes, as in the HTML parser; scanning on from there keeps
      // the whole check one pass. Without one, the rest of the text is inside this tag.
      let k = j;
      let quote = 0;
      for (; k < end; k++) {
        const c = text.charCodeAt(k);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === 0x3e) break;
      }
      if (j > nameStart && !isDigit(text.charCodeAt(nameStart)) && text.charCodeAt(nameStart) !== 0x2d) {
        const name = text.slice(nameStart, j).toLowerCase();
        if (!VOID_OR_SELF_CLOSING.has(name)) {
          if (closing) this.depth = Math.max(0, this.depth - 1);
          else if (!(text.charCodeAt(k) === 0x3e && text.charCodeAt(k - 1) === 0x2f)) this.depth++;
          if (this.depth > this.max) {
            this.max = this.depth;
            this.maxLine = line;
          }
        }
      }
      i = this.next(text, Math.max(k, i + 1));
    }
  }
}

function isNameChar(c: number): boolean {
  return isDigit(c) || c === 0x2d || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function countLines(text: string, end: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Checks an HTML body (content_html) against the limits; null when it is within them. */
export function checkHtmlBody(html: string): BodyLimitProblem | null {
  if (html.length > BODY_LIMITS.htmlChars) return problem('htmlChars', html.length, 1);
  const depth = new HtmlDepth();
  depth.scan(html, 0, html.length, 1);
  if (depth.max > BODY_LIMITS.htmlDepth) {
    // The line is only found when there is a problem, so the pass stays one.
    const over = new HtmlDepth();
    let line = 1;
    let start = 0;
    while (start <= html.length) {
      const nl = html.indexOf('\n', start);
      const end = nl === -1 ? html.length : nl;
      over.scan(html, start, end, line);
      if (over.max > BODY_LIMITS.htmlDepth) return problem('htmlDepth', depth.max, line);
      start = end + 1;
      line++;
    }
    return problem('htmlDepth', depth.max, countLines(html, html.length));
  }
  return null;
}

/** Per-block counters of the characters that drive the inline parser's cost. */
interface BlockCounts {
  line: number;
  delimiters: number;
  brackets: number;
  backticks: number;
}

/** Counters over the whole body, for costs that add up across blocks. */
interface BodyCounts {
  delimiters: number;
  brackets: number;
  containerMarkers: number;
  containerBlocks: number;
}

/** The per-body limits of a body of `chars` characters: each once per started million characters. */
function bodyMaxima(chars: number): Record<'delimitersPerBody' | 'bracketsPerBody' | 'containerMarkers', number> {
  const millions = startedMillions(chars);
  return {
    delimitersPerBody: BODY_LIMITS.delimitersPerBody * millions,
    bracketsPerBody: BODY_LIMITS.bracketsPerBody * millions,
    containerMarkers: BODY_LIMITS.containerMarkers * millions,
  };
}

function blockProblem(block: BlockCounts, body: BodyCounts, line: number, max: ReturnType<typeof bodyMaxima>): BodyLimitProblem | null {
  if (block.delimiters > BODY_LIMITS.delimitersPerBlock) return problem('delimitersPerBlock', block.delimiters, block.line);
  if (block.brackets > BODY_LIMITS.bracketsPerBlock) return problem('bracketsPerBlock', block.brackets, block.line);
  if (block.backticks > BODY_LIMITS.backticksPerBlock) return problem('backticksPerBlock', block.backticks, block.line);
  if (body.delimiters > max.delimitersPerBody) return problem('delimitersPerBody', body.delimiters, line, max.delimitersPerBody);
  if (body.brackets > max.bracketsPerBody) return problem('bracketsPerBody', body.brackets, line, max.bracketsPerBody);
  if (body.containerMarkers > max.containerMarkers) return problem('containerMarkers', body.containerMarkers, line, max.containerMarkers);
  if (body.containerBlocks > BODY_LIMITS.containerBlocks) return problem('containerBlocks', body.containerBlocks, line);
  return null;
}

// A fence opens only at the very start of a line: anywhere else it may be
// inside a container the scanner does not follow, and a wrong guess here
// must only ever make the scanner count more, not less.
const FENCE = /^(`{3,}|~{3,})/;
// Raw HTML blocks whose content is not Markdown up to their closing tag,
// even across blank lines: a fence inside one is no fence.
const RAW_HTML_OPEN = /^ {0,3}<(pre|script|style|textarea)(?=[\s>]|$)/i;
const RAW_HTML_CLOSE = /<\/(pre|script|style|textarea)>/i;

/**
 * Checks a Markdown body (content_markdown, or stored Markdown) against the
 * limits in one pass; null when it is within them.
 *
 * Blocks are approximated by lines: a blank line (also one blank after its
 * `>` markers), a list item, a heading or a table row starts a new one. Any
 * other line continues the block before it, as a paragraph continues over
 * `>` prefixes, indentation and lazy lines: counting per line would let one
 * paragraph of thousands of quoted lines carry any number of delimiters.
 * Fenced code (opened at the start of a line) is not inline-parsed, so its
 * backticks are not counted, but everything else is.
 *
 * Blockquotes opened are counted as `>` markers beyond those of the last
 * non-blank quoted line (a blank line closes them all); lists opened as
 * list items after a line that closes lists (one neither indented nor a
 * list item, nor blank). Both over-count (a lazy line is taken to close).
 */
export function checkMarkdownBody(markdown: string): BodyLimitProblem | null {
  if (markdown.length > BODY_LIMITS.markdownChars) return problem('markdownChars', markdown.length, 1);
  // The parts the body is parsed in (`parseMarkdown`): the costs that grow with the text before them in one parse
  // are bounded per part.
  const { starts: parts, stop } = markdownDivision(markdown);
  for (let i = 0; i < parts.length; i++) {
    const end = parts[i + 1] ?? markdown.length;
    const chars = end - parts[i]!;
    if (chars <= BODY_LIMITS.segmentChars) continue;
    // The last part is long because the division stopped: say where, and why.
    const why = stop && stop.offset >= parts[i]! && stop.offset < end ? `; the division stopped at line ${countLines(markdown, stop.offset)}: ${stop.why}` : '';
    return problem('segmentChars', chars, countLines(markdown, parts[i]!), BODY_LIMITS.segmentChars, why);
  }
  const max = bodyMaxima(markdown.length);
  let part = 1;
  const html = new HtmlDepth();
  let block: BlockCounts = { line: 1, delimiters: 0, brackets: 0, backticks: 0 };
  const body: BodyCounts = { delimiters: 0, brackets: 0, containerMarkers: 0, containerBlocks: 0 };
  // `>` markers of the blockquotes open at the end of the previous line, and whether a list is.
  let openQuotes = 0;
  let openList = false;
  let fence: string | null = null;
  let rawHtml = false;
  let line = 0;
  let start = 0;
  while (start <= markdown.length) {
    line++;
    const nl = markdown.indexOf('\n', start);
    const end = nl === -1 ? markdown.length : nl;
    const next = end + 1;
    if (start === parts[part]) {
      part++;
      body.containerBlocks = 0;
    }

    const head = markdown.slice(start, Math.min(end, start + 64));
    const open = rawHtml ? null : FENCE.exec(head);
    if (fence !== null) {
      if (open && open[1]!.startsWith(fence)) fence = null;
      start = next;
      continue;
    }
    if (open) {
      fence = open[1]!;
      block = { line, delimiters: 0, brackets: 0, backticks: 0 };
      start = next;
      continue;
    }

    if (RAW_HTML_OPEN.test(head)) rawHtml = true;
    // Looked for in the whole line, so a long line costs one more pass over it, not more.
    if (rawHtml && RAW_HTML_CLOSE.test(markdown.slice(start, end))) rawHtml = false;

    const { depth, content, quotes, markers } = lineDepth(markdown, start, end);
    if (depth > BODY_LIMITS.markdownDepth) return problem('markdownDepth', depth, line);
    body.containerMarkers += quotes + markers;
    const first = markdown.charCodeAt(content);
    const blank = content >= end;
    const startsBlock = blank || markers > 0 || first === 0x23 /* # */ || first === 0x7c /* | */;
    if (startsBlock) block = { line, delimiters: 0, brackets: 0, backticks: 0 };
    if (quotes > openQuotes) body.containerBlocks += quotes - openQuotes;
    if (markers > 0 && !openList) body.containerBlocks++;
    // A lazy line (no `>`) continues the quote; an empty line ends every quote.
    if (blank && quotes === 0) openQuotes = 0;
    else if (quotes > 0) openQuotes = quotes;
    if (markers > 0) openList = true;
    else if (!blank && content === start) openList = false;

    let cells = 0;
    for (let i = content; i < end; i++) {
      switch (markdown.charCodeAt(i)) {
        case 0x2a: case 0x5f: case 0x7e: block.delimiters++; body.delimiters++; break;
        case 0x5b: case 0x5d: block.brackets++; body.brackets++; break;
        case 0x60: block.backticks++; break;
        case 0x7c: cells++; break;
      }
    }
    if (cells > BODY_LIMITS.tableColumns) return problem('tableColumns', cells, line);
    const over = blockProblem(block, body, line, max);
    if (over) return over;
    html.scan(markdown, content, end, line);
    if (html.max > BODY_LIMITS.htmlDepth) return problem('htmlDepth', html.max, html.maxLine);
    start = next;
  }
  return null;
}
