/**
 * The traversal corpus: spellings of "go up a folder" (`../`, `%2e%2e`,
 * `%2f`, `%5c`, backslashes, double encoding, overlong UTF-8, Unicode dots and
 * slashes, NUL) combined with every prefix that serves files or routes, and
 * aimed at files outside the output folder. Generated, so it stays the same
 * on every run.
 * @module
 */
import type { RawRequest } from '../helpers/raw-http.ts';

/** "..", spelled in every way a decoder might turn into two dots. */
export const DOT_DOTS = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%c0%ae%c0%ae', // overlong UTF-8
  '%e0%80%ae%e0%80%ae', // overlong UTF-8, three bytes
  '%ef%bc%8e%ef%bc%8e', // U+FF0E full-width full stops
  '%u002e%u002e', // IIS-style
  '...',
  '..%00',
] as const;

/** "/", spelled in every way a decoder might turn into a separator. */
export const SEPARATORS = [
  '/',
  '%2f',
  '%2F',
  '%5c',
  '\\',
  '%252f',
  '%c0%af', // overlong UTF-8
  '%ef%bc%8f', // U+FF0F full-width solidus
  '%e2%88%95', // U+2215 division slash
  '//',
] as const;

/** Where the probes start: static files, media, the public API, the publishing API. */
export const PREFIXES = ['/', '/media/', '/fz/', '/fz/fz-article/', '/_astro/', '/pagefind/', '/api/public/v1/channels/', '/api/public/v1/channels/fz/articles/', '/api/v1/channels/fz/pages/'] as const;

/** Targets outside the output folder, relative to the folder that holds it (`dist/..`). */
export interface TraversalTargets {
  /** The folder holding `dist/`, without a leading slash (e.g. `tmp/pressroom-test-x`). */
  readonly rootRelativeDir: string;
  /** The planted secret, next to `dist/`. */
  readonly secretName: string;
}

/**
 * The probes: each prefix × each ".." × each separator, at depths that land
 * exactly beside `dist/` and deep enough to reach `/` (then aiming at the
 * absolute folder), plus absolute paths and NUL tricks.
 */
export function traversalProbes(targets: TraversalTargets): RawRequest[] {
  const out: RawRequest[] = [];
  const add = (name: string, path: string) => out.push({ name, method: 'GET', path });
  for (const prefix of PREFIXES) {
    const prefixDepth = prefix.split('/').filter(Boolean).length;
    for (const dots of DOT_DOTS) {
      for (const sep of SEPARATORS) {
        const up = (n: number) => `${dots}${sep}`.repeat(n);
        const join = (path: string) => path.split('/').join(sep);
        // Beside dist/: one level above the prefix's own folders.
        add(`${prefix} ${dots} ${sep} secret`, `${prefix}${up(prefixDepth + 1)}${targets.secretName}`);
        // Up to / and down again to the absolute folder: the database and the secret.
        add(`${prefix} ${dots} ${sep} /…/secret`, `${prefix}${up(12)}${join(`${targets.rootRelativeDir}/${targets.secretName}`)}`);
        add(`${prefix} ${dots} ${sep} /…/data/pressroom.db`, `${prefix}${up(12)}${join(`${targets.rootRelativeDir}/data/pressroom.db`)}`);
        add(`${prefix} ${dots} ${sep} /etc/passwd`, `${prefix}${up(12)}${join('etc/passwd')}`);
      }
    }
    // Absolute paths after the prefix, and NUL tricks.
    for (const tail of [
      `/${targets.rootRelativeDir}/${targets.secretName}`,
      `%2f${targets.rootRelativeDir.replaceAll('/', '%2f')}%2f${targets.secretName}`,
      '/etc/passwd',
      '%2fetc%2fpasswd',
      '%5cetc%5cpasswd',
      'C:%5cWindows%5cwin.ini',
      'file:%2f%2f%2fetc%2fpasswd',
      `..%2f${targets.secretName}%00.html`,
      `index.html%00../../${targets.secretName}`,
      '%00',
      '%2500',
      '.',
      '%2e',
      '~',
      '.git/config',
      '.env',
    ]) {
      add(`${prefix} absolute/NUL ${tail.slice(0, 40)}`, `${prefix}${tail}`);
    }
  }
  // Request targets that are not origin-form.
  for (const target of [`//${targets.rootRelativeDir}/${targets.secretName}`, '//etc/passwd', 'http://pressroom.test/../../etc/passwd', `http://pressroom.test/%2e%2e/${targets.secretName}`, '*']) {
    add(`target ${target.slice(0, 50)}`, target);
  }
  return out;
}
