/**
 * Warnings returned to publishers when their body had to be changed.
 *
 * The normalisation steps only record *what* they changed (a `BodyChanges`
 * tally); the wording and the order of warnings live here so that every
 * input format produces identical, predictable messages.
 * @module
 */

/** Machine-readable reason for a body warning; stable, clients may switch on it. */
export type BodyWarningCode =
  | 'BODY_H1_DEMOTED'
  | 'BODY_TITLE_HEADING_REMOVED'
  | 'BODY_BIDI_CONTROLS_STRIPPED'
  | 'BODY_DIR_REMOVED'
  | 'BODY_HTML_REMOVED'
  | 'BODY_UNSAFE_URL_REMOVED'
  | 'BODY_CONTROL_CHARACTERS_REMOVED'
  | 'BODY_IMAGE_ALT_MISSING'
  | 'BODY_IMAGE_SRC_UNRESOLVED';

/** A change made to the publisher's body, explained so they can fix their source. */
export interface BodyWarning {
  code: BodyWarningCode;
  message: string;
}

/**
 * Every warning code, in the order warnings are emitted. Exported so API
 * docs and schemas can enumerate the codes without repeating them.
 */
export const BODY_WARNING_CODES: readonly BodyWarningCode[] = Object.freeze([
  'BODY_H1_DEMOTED',
  'BODY_TITLE_HEADING_REMOVED',
  'BODY_BIDI_CONTROLS_STRIPPED',
  'BODY_DIR_REMOVED',
  'BODY_HTML_REMOVED',
  'BODY_UNSAFE_URL_REMOVED',
  'BODY_CONTROL_CHARACTERS_REMOVED',
  'BODY_IMAGE_ALT_MISSING',
  'BODY_IMAGE_SRC_UNRESOLVED',
] as const);

/**
 * Tally of changes made while normalising one body. Mutable on purpose: the
 * steps run in sequence and each adds what it did.
 */
export interface BodyChanges {
  titleHeadingRemoved: boolean;
  h1Demoted: number;
  bidiStripped: number;
  dirRemoved: number;
  /** Human-readable names of what the sanitiser dropped, e.g. `<script>`. */
  htmlRemoved: string[];
  /** Markdown link, image and definition targets dropped for their scheme (`javascript:`…). */
  unsafeUrls: number;
  /** Control characters HTML forbids (C0 but tab, LF, FF and CR; DEL; C1), removed from the source. */
  controlsStripped: number;
  /** `<img>` without an `alt` attribute, removed (`image-alt.ts`). */
  imagesWithoutAlt: number;
}

/** A tally with nothing changed yet. */
export function noChanges(): BodyChanges {
  return { titleHeadingRemoved: false, h1Demoted: 0, bidiStripped: 0, dirRemoved: 0, htmlRemoved: [], unsafeUrls: 0, controlsStripped: 0, imagesWithoutAlt: 0 };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Turns a tally into warnings, at most one per code and always in
 * `BODY_WARNING_CODES` order, so responses are deterministic.
 */
export function changesToWarnings(changes: BodyChanges): BodyWarning[] {
  const warnings: BodyWarning[] = [];
  if (changes.h1Demoted > 0) {
    warnings.push({
      code: 'BODY_H1_DEMOTED',
      message: `Changed ${plural(changes.h1Demoted, 'level-1 heading', 'level-1 headings')} to level 2: the title is the page's only H1. Use ## or ### for sections.`,
    });
  }
  if (changes.titleHeadingRemoved) {
    warnings.push({
      code: 'BODY_TITLE_HEADING_REMOVED',
      message:
        'Removed the heading at the start of the body because it repeats the title; the title is already shown as the page heading.',
    });
  }
  if (changes.bidiStripped > 0) {
    warnings.push({
      code: 'BODY_BIDI_CONTROLS_STRIPPED',
      message: `Removed ${plural(changes.bidiStripped, 'bidirectional override/embedding control character', 'bidirectional override/embedding control characters')} (U+202A–U+202E, U+2066–U+2069). Use the dir attribute on a block, or RLM/LRM marks, instead.`,
    });
  }
  if (changes.dirRemoved > 0) {
    warnings.push({
      code: 'BODY_DIR_REMOVED',
      message: `Removed ${plural(changes.dirRemoved, 'dir attribute', 'dir attributes')}: dir is kept only on block elements (p, div, section, blockquote, lists, h2–h6, tables, pre, figure) with the value ltr, rtl or auto.`,
    });
  }
  if (changes.htmlRemoved.length > 0) {
    warnings.push({
      code: 'BODY_HTML_REMOVED',
      message: `Removed HTML that is not allowed in article bodies: ${changes.htmlRemoved.join(', ')}.`,
    });
  }
  if (changes.unsafeUrls > 0) {
    warnings.push({
      code: 'BODY_UNSAFE_URL_REMOVED',
      message: `Removed ${plural(changes.unsafeUrls, 'link or image target', 'link or image targets')} with a scheme that is not allowed (such as javascript:, data: or vbscript:); the link text or alt text is kept. Links may use http, https, mailto, xmpp, irc or ircs, or a relative address; images http or https.`,
    });
  }
  if (changes.controlsStripped > 0) {
    warnings.push({
      code: 'BODY_CONTROL_CHARACTERS_REMOVED',
      message: `Removed ${plural(changes.controlsStripped, 'invisible control character', 'invisible control characters')} (U+0000–U+001F other than tab, line feed, form feed and carriage return, U+007F–U+009F): web pages may not contain them, so the page, its Markdown and its JSON carry the text without them. They usually come from pasted text; check the source where it was copied from.`,
    });
  }
  if (changes.imagesWithoutAlt > 0) {
    warnings.push({
      code: 'BODY_IMAGE_ALT_MISSING',
      message: `Removed ${plural(changes.imagesWithoutAlt, 'image', 'images')} without an alt attribute (<img> with no alt): a reader who cannot see an image gets only its alt text, so an image without one is not published. Describe the image in alt="…", or write alt="" (in Markdown, ![](address)) if it is only decoration.`,
    });
  }
  return warnings;
}

/** The warning of images whose address leads nowhere (`unresolvedImageSources`), or null. */
export function unresolvedImagesWarning(sources: readonly string[]): BodyWarning | null {
  if (sources.length === 0) return null;
  const shown = sources.slice(0, 3).map((s) => `"${s}"`).join(', ') + (sources.length > 3 ? ` and ${sources.length - 3} more` : '');
  return {
    code: 'BODY_IMAGE_SRC_UNRESOLVED',
    message: `${sources.length === 1 ? 'An image address leads' : `${sources.length} image addresses lead`} nowhere readers can load: ${shown}. A relative address resolves against the article page, where no file is. Upload the image (POST /api/v1/channels/{channel}/media) and use the url it returns, or give a full https:// address.`,
  };
}
