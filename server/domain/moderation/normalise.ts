/**
 * Normal forms that moderation compares: text as a reader perceives it, and
 * link targets as a browser resolves them. Both sides of every comparison
 * (the rules and the submission) go through the same functions, so spelling
 * tricks — entities, invisible characters, full-width letters, odd URL
 * forms — reach the same form as the plain spelling.
 * @module
 */

/**
 * Characters a reader does not see: format characters (soft hyphen, ZWSP,
 * ZWJ/ZWNJ, bidi controls, word joiner, BOM) and every other default-ignorable
 * code point (variation selectors, Hangul fillers, combining grapheme joiner).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Control characters other than the whitespace ones, which fold to a space. */
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
/** Every kind of whitespace, line and paragraph separators included. */
const WHITESPACE = /[\s\p{Z}\u0085]+/gu;

/**
 * Text in the form moderation compares: invisible and control characters
 * removed, Unicode NFKC (full-width and compatibility letters become plain
 * ones), whitespace folded to single spaces, case folded. Never throws.
 * @example normaliseText('Ｃａｓｉｎｏ\u00a0BON\u00adUS') // 'casino bonus'
 */
export function normaliseText(text: string): string {
  // Removed before and after NFKC: removal can bring composable characters together,
  // and compatibility mappings can, in principle, yield ignorable ones.
  const visible = text.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '').replace(CONTROL, '');
  // Upper then lower approximates full case folding (ß → ss, ς → σ) beyond toLowerCase; ẞ lowers to ß.
  return visible.replace(WHITESPACE, ' ').trim().toUpperCase().toLowerCase().replace(/ß/g, 'ss');
}

/** Markdown's inline formatting markers, removed for a second look at run-together words. */
const MARKERS = /[*_~`]+/g;

/**
 * Normalised text with Markdown emphasis, strike and code markers removed,
 * so that `zz**block**marker` and `zz_block_marker` read as `zzblockmarker`.
 */
export function withoutMarkers(normalised: string): string {
  return normalised.replace(MARKERS, '').replace(/ {2,}/g, ' ').trim();
}

/** Schemes whose URLs name a host a reader can be sent to. */
const HOST_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The host a link target sends a reader to, in normal form, or null when the
 * target names no host (a relative path, a fragment, `javascript:`).
 *
 * Resolves what browsers resolve: protocol-relative `//host`, backslashes
 * for slashes, `https:host`, a `www.` start without scheme, userinfo
 * (`user@host`), ports, percent-encoded and full-width host characters and
 * IDNA (through the WHATWG URL parser), trailing dots; `mailto:` gives the
 * address's domain. Never throws.
 * @example linkHost('https://user@SPAM%2Eexample.:8080/x') // 'spam.example'
 */
export function linkHost(target: string): string | null {
  // Browsers drop tabs and newlines inside URLs and C0 controls and spaces around them.
  let url = target.replace(INVISIBLE, '').replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/\\/g, '/');
  if (url === '') return null;
  if (/^mailto:/i.test(url)) {
    const at = url.split('?')[0]!.lastIndexOf('@');
    return at < 0 ? null : normaliseHost(url.slice(at + 1).split('?')[0]!);
  }
  if (url.startsWith('//')) url = `https:${url}`;
  else if (/^www\./i.test(url)) url = `http://${url}`;
  else if (!HOST_SCHEME.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.hostname === '') return null;
  return normaliseHost(parsed.hostname);
}

/**
 * A host name in normal form: percent-decoded, IDNA (punycode, full-width
 * and ideographic dots mapped), lowercase, without port, userinfo or
 * leading/trailing dots. Null when nothing of a host remains.
 * @example normaliseHost('WWW.Spam.Example.') // 'www.spam.example'
 */
export function normaliseHost(host: string): string | null {
  let name = host.replace(INVISIBLE, '').trim();
  // Non-special schemes (`foo://`) leave percent-escapes in the host.
  if (name.includes('%')) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // A malformed escape: compared as written.
    }
  }
  name = name.replace(/^.*@/, '').replace(/:\d*$/, '');
  let ascii: string;
  try {
    ascii = new URL(`http://${name}/`).hostname;
  } catch {
    ascii = name.normalize('NFKC').toLowerCase();
  }
  const trimmed = ascii.replace(/^\.+|\.+$/g, '');
  return trimmed === '' ? null : trimmed;
}

/** Whether `host` is `domain` or one of its subdomains (both in normal form). */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
