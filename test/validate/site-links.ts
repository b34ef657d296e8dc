/**
 * Whether an address the output publishes answers from the output folder,
 * decided the way the bundled server decides it (`fileForRequest`), for the
 * checkers of the validation suite.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileForRequest } from '../../server/serving/static-files.ts';

/**
 * The output file answering `url` when it is an address of the site at
 * `baseUrl` (absolute, same origin and path prefix), or a reason it does not
 * resolve: `external` for other sites (not checked), otherwise what is wrong.
 */
export function siteFileFor(url: string, baseUrl: string, distDir: string): { file: string } | { external: true } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `not an absolute URL: ${url}` };
  }
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(base.pathname)) {
    return /^(?:https?|mailto):$/.test(parsed.protocol) ? { external: true } : { problem: `unexpected scheme: ${url}` };
  }
  const langs = parsed.searchParams.getAll('lang');
  if (langs.length > 1) return { problem: `repeated lang: ${url}` };
  const mapped = fileForRequest(`/${parsed.pathname.slice(base.pathname.length)}`, langs[0] ?? null);
  if ('reason' in mapped) return { problem: `${mapped.reason}: ${url}` };
  return fs.existsSync(path.join(distDir, mapped.file)) ? mapped : { problem: `no such output (${mapped.file}): ${url}` };
}
