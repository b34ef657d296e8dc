/**
 * Where a Markdown body can be cut into parts that parse on their own.
 *
 * micromark reads about 1 MB/s here, and some of its costs grow with the
 * text before a construct in the same parse (`limits.ts`). A body cut at
 * places where the parser holds no state parses, part by part, to the same
 * tree as whole (positions shifted): each part's cost is bounded by its own
 * size, and parts can be parsed at once on several threads.
 *
 * Such a place is the start of a line that begins with an ASCII letter, in
 * the first column, after a blank line: every container (list, quote,
 * footnote definition) and every paragraph, table and HTML block of kinds
 * 6–7 has ended there, and the line opens a paragraph. Only a fenced code
 * block or a raw HTML block (`<pre>`, `<script>`, `<style>`, `<textarea>`,
 * comments, processing instructions, declarations, CDATA) can still be
 * open, and those are followed. Whatever this scan cannot tell for certain
 * stops the cutting for the rest of the body, so a body it does not
 * understand is parsed whole, as before, never cut wrongly:
 * - a definition (`[label]: …`, footnotes too) anywhere, as definitions
 *   apply to the whole document: a body with `]:` is not cut at all;
 * - a carriage return (another line ending);
 * - an indented fence or raw HTML opener (it may sit in a list item);
 * - a fence or raw HTML opener inside what may be an HTML block;
 * - a raw HTML opener whose end may overlap its start (`<!-->`).
 * `markdown-segments.test.ts` compares whole and cut parses.
 * @module
 */

/** Longest part the body limits accept (`segmentChars` in `limits.ts`): a 1 MB body of old. */
export const SEGMENT_MAX_CHARS = 1_000_000;

/** The size a part grows to before it is cut at the next place that allows it. */
export const SEGMENT_TARGET_CHARS = 128_000;

const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
// Kinds 1–5 of CommonMark's HTML blocks: they end at their closing text, not at a blank line.
const RAW_OPEN: ReadonlyArray<readonly [RegExp, string, boolean]> = [
  [/^<(?:pre|script|style|textarea)(?=[\t >]|$)/i, '', true],
  [/^<!--/, '-->', false],
  [/^<\?/, '?>', false],
  [/^<![A-Za-z]/, '>', false],
  [/^<!\[CDATA\[/, ']]>', false],
];
const RAW_CLOSE_TAG = /<\/(?:pre|script|style|textarea)>/i;

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Columns of leading whitespace (tabs to the next multiple of 4) and where the content starts. */
function indentOf(text: string, start: number, end: number): { columns: number; content: number } {
  let columns = 0;
  let i = start;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) columns++;
    else if (c === 0x09) columns += 4 - (columns % 4);
    else break;
  }
  return { columns, content: i };
}

/** A raw HTML block's end on its own first line, after its opener; 'ambiguous' when an end overlaps the opener. */
type RawEnd = { readonly close: string; readonly tag: boolean };

function rawOpener(line: string): { end: RawEnd; ended: boolean | 'ambiguous' } | null {
  for (const [open, close, tag] of RAW_OPEN) {
    const found = open.exec(line);
    if (!found) continue;
    const after = found[0].length;
    if (tag) return { end: { close, tag }, ended: RAW_CLOSE_TAG.test(line.slice(after)) };
    const at = line.indexOf(close, 1);
    if (at === -1) return { end: { close, tag }, ended: false };
    return { end: { close, tag }, ended: at >= after ? true : 'ambiguous' };
  }
  return null;
}

function rawEnds(end: RawEnd, line: string): boolean {
  return end.tag ? RAW_CLOSE_TAG.test(line) : line.includes(end.close);
}

/** Where the scan stopped dividing a body, and why (for the error of a part over `SEGMENT_MAX_CHARS`). */
export interface DivisionStop {
  /** Offset of the line (or character) that stopped it. */
  readonly offset: number;
  readonly why: string;
}

/**
 * Start offsets of the parts of `markdown` (the first is 0): each part is
 * cut at the first place that allows it once it holds `target` characters.
 * One part when the body cannot be cut (see the module's comment).
 */
export function markdownSegments(markdown: string, target: number = SEGMENT_TARGET_CHARS): number[] {
  return markdownDivision(markdown, target).starts;
}

/** {@link markdownSegments}, with where and why the scan stopped dividing, when it did. */
export function markdownDivision(markdown: string, target: number = SEGMENT_TARGET_CHARS): { starts: number[]; stop: DivisionStop | null } {
  const starts = [0];
  if (markdown.length <= target) return { starts, stop: null };
  const definition = markdown.indexOf(']:');
  if (definition !== -1) return { starts, stop: { offset: definition, why: 'a reference definition ([label]: url) applies to the whole body' } };
  const carriageReturn = markdown.indexOf('\r');
  if (carriageReturn !== -1) return { starts, stop: { offset: carriageReturn, why: 'a carriage return ends a line' } };
  let fence: { char: string; length: number } | null = null;
  let raw: RawEnd | null = null;
  // A line of indent 0–3 began with `<` since the last blank line: an HTML block of kind 6–7 may be open, in
  // which a fence line is content. Or a paragraph is, in which it is a fence. The scan cannot tell which.
  let maybeHtml = false;
  let previousBlank = false;
  let start = 0;
  while (start < markdown.length) {
    const nl = markdown.indexOf('\n', start);
    const end = nl === -1 ? markdown.length : nl;
    const next = end + 1;
    if (fence !== null) {
      const { columns, content } = indentOf(markdown, start, end);
      const line = markdown.slice(content, end);
      if (columns < 4 && markdown.charCodeAt(start) !== 0x09 && closesFence(line, fence)) fence = null;
      previousBlank = false;
      start = next;
      continue;
    }
    if (raw !== null) {
      if (rawEnds(raw, markdown.slice(start, end))) raw = null;
      previousBlank = false;
      start = next;
      continue;
    }
    const { columns, content } = indentOf(markdown, start, end);
    const blank = content === end;
    if (blank) {
      maybeHtml = false;
      previousBlank = true;
      start = next;
      continue;
    }
    const first = markdown.charCodeAt(content);
    if (previousBlank && content === start && isLetter(first) && start - starts[starts.length - 1]! >= target) {
      starts.push(start);
    }
    previousBlank = false;
    if (columns < 4 && (first === 0x60 || first === 0x7e || first === 0x3c)) {
      const line = markdown.slice(content, end);
      const fenceOpen = first === 0x3c ? null : FENCE_OPEN.exec(line);
      const isFence = fenceOpen !== null && !(first === 0x60 && fenceOpen[2]!.includes('`'));
      const rawOpen = first === 0x3c ? rawOpener(line) : null;
      if (isFence || rawOpen !== null) {
        // Indented, it may belong to a list item; inside a possible HTML block it may be content.
        const why =
          columns > 0
            ? `an indented ${isFence ? 'code fence' : 'raw HTML block'} may belong to a list item`
            : maybeHtml
              ? `a ${isFence ? 'code fence' : 'raw HTML block'} follows an HTML line, in whose block it may be content`
              : rawOpen?.ended === 'ambiguous'
                ? 'an HTML comment, instruction or declaration may end where it starts (<!-->)'
                : null;
        if (why !== null) return { starts, stop: { offset: start, why } };
        if (isFence) fence = { char: fenceOpen[1]![0]!, length: fenceOpen[1]!.length };
        else if (rawOpen && rawOpen.ended === false) raw = rawOpen.end;
      } else if (first === 0x3c) {
        maybeHtml = true;
      }
    }
    start = next;
  }
  return { starts, stop: null };
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  let i = 0;
  while (i < line.length && line[i] === fence.char) i++;
  if (i < fence.length) return false;
  for (; i < line.length; i++) if (line[i] !== ' ' && line[i] !== '\t') return false;
  return true;
}
