/**
 * The one normalisation of a request path, used by every part of the server
 * that looks at one: the app's router (and with it the public API's rate
 * limiter), the static fast path, the output file lookup and the media files.
 * Every spelling of an address is thereby treated alike: `/%61pi/public/v1/…`
 * is `/api/public/v1/…`, in the same rate-limit bucket and with the same
 * query rules (issue 18, where the fast path tested the raw path and the file
 * lookup decoded it, so an encoded spelling skipped the limiter).
 *
 * The canonical form (RFC 3986, section 6.2.2) keeps the path percent-encoded:
 * escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`) are decoded, every
 * other escape is upper-cased. A path that could only be a trick is refused
 * instead, and the server answers it 404 like any address that names nothing:
 * an encoded `/` or `\`, a raw `\`, NUL or another control character (raw or
 * encoded), a dot segment (`.`/`..`, raw or encoded), an empty segment (`//`)
 * other than a trailing slash, a malformed escape or invalid UTF-8, and a
 * different letter case of the reserved prefixes `/api/` and `/media/`
 * (a case-insensitive file system would otherwise answer `/API/…` from the
 * API's files without the limiter).
 * @module
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Top-level segments that belong to the app's own routes; another letter case is refused. */
const RESERVED_FIRST_SEGMENTS: readonly string[] = ['api', 'media'];

/**
 * The canonical spelling of `rawPath` (the path of the request target, without
 * query or fragment), or null when the path is refused (see the module).
 * @example normalizeRequestPath('/%61pi/public/v1/channels') // '/api/public/v1/channels'
 * @example normalizeRequestPath('/tech/caf%c3%a9') // '/tech/caf%C3%A9'
 * @example normalizeRequestPath('/media/%2e%2e/x') // null
 */
export function normalizeRequestPath(rawPath: string): string | null {
  if (!rawPath.startsWith('/') || rawPath.includes('\\')) return null;
  const segments = rawPath.slice(1).split('/');
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (segment === '' && i !== segments.length - 1) return null;
    const canonical = canonicalSegment(segment);
    if (canonical === null || canonical === '.' || canonical === '..') return null;
    out.push(canonical);
  }
  const first = out[0]!;
  if (RESERVED_FIRST_SEGMENTS.includes(first.toLowerCase()) && !RESERVED_FIRST_SEGMENTS.includes(first)) return null;
  return `/${out.join('/')}`;
}

/** One segment in canonical form, or null when it hides a separator, a control character or bad encoding. */
function canonicalSegment(segment: string): string | null {
  // Raw control characters (and DEL) never reach here from Node's parser, but a caller may pass any string.
  if (/[\u0000-\u001f\u007f]/.test(segment)) return null;
  if (!segment.includes('%')) return segment;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape or bytes that are not UTF-8.
    return null;
  }
  if (/[/\\\u0000-\u001f\u007f]/.test(decoded)) return null;
  return segment.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * The path of a request target (`/a/b?x=1` → `/a/b`), as received; pass it to
 * {@link normalizeRequestPath}.
 */
export function rawPathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}
