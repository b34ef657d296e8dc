/**
 * The security headers of the site's HTML pages, decided once: the bundled
 * server sends them with every page (`server/http/routes/site-files.ts`, and
 * its fast path), and the generated host configs (nginx, Netlify,
 * Cloudflare) carry the same values.
 *
 * The policy is what the site's own pages need and no more: their scripts
 * are files of the site (`pagefind/pagefind-ui.js` and the search start-up
 * script under `_astro/`; no inline script, no inline event handler),
 * Pagefind compiles its WebAssembly (`'wasm-unsafe-eval'`, which allows
 * WebAssembly only, not `eval`) and fetches its index from the site, the
 * stylesheets are files of the site. Images may come from the site, `data:`
 * URLs or any HTTPS address an article links. JSON-LD is data, not script:
 * the policy does not apply to it. Nothing may frame a page.
 * @module
 */

/** The Content-Security-Policy of every HTML page. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every HTML page carries besides its content headers (X-Content-Type-Options: nosniff goes with every file). */
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
});

/**
 * The security headers of one output file: all of them on HTML pages, the
 * policy alone on scripts (a worker, such as Pagefind's `pagefind-worker.js`
 * that compiles the WebAssembly, runs under the policy of its own response,
 * not its page's), none on other files.
 */
export function securityHeadersFor(file: string): Readonly<Record<string, string>> {
  if (file.endsWith('.html')) return HTML_SECURITY_HEADERS;
  if (file.endsWith('.js')) return SCRIPT_SECURITY_HEADERS;
  return {};
}

const SCRIPT_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY });
