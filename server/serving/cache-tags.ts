/**
 * Cache tags (issue 35; docs/HOSTING.md, "CDN and object storage"): the
 * names a CDN files each answer under, so a build purges exactly what it
 * changed. One home for the tag rules: the bundled server, the generated
 * nginx configuration, the Cloudflare worker, the bucket's object metadata
 * and the purge after each build all derive their tags from here.
 *
 * Every answer carries at most three tags:
 * - `{prefix}`: the whole site, purged only when one delivery changed more
 *   files than a purge can name (`PURGE_ALL_ABOVE_TAGS`: a full rebuild after a
 *   renderer change);
 * - a static file's answer: `{prefix}:f:/{file}`, the output file it sent,
 *   whichever address or variant asked for it (`/a/b`, `/a/b?lang=en`,
 *   `Accept: text/markdown` all name their file);
 * - an answer rendered on demand (query forms, search): `{prefix}:q:{channel}`
 *   for a channel's lists, `{prefix}:q` for the site's;
 * - a file of the search index (`pagefind/`): also `{prefix}:s`, purged
 *   whenever the index is rebuilt (its entry files keep their names).
 *
 * A build purges the file tags of what it wrote or removed, and the
 * query-form tags of the channels they belong to (and the site's); files of
 * the search index by the search tag alone. Tags are
 * derived from paths alone, so a static host's configuration computes them
 * without reading the manifest.
 *
 * Pure: no HTTP, no filesystem; bundled into the Cloudflare worker.
 * @module
 */

/** Tags an answer carries, each at most `MAX_TAG_LENGTH` characters. */
export type CacheTags = readonly string[];

/** Cloudflare's and Fastly's limit on one tag (bytes; tags are ASCII). */
export const MAX_TAG_LENGTH = 1024;

/** The default prefix (`PRESSROOM_CACHE_TAG_PREFIX`). */
export const DEFAULT_TAG_PREFIX = 'pressroom';

/** A prefix: letters, digits, `-` and `_`, so every tag is one token in both header syntaxes. */
export const TAG_PREFIX_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

const API_CHANNELS = 'api/public/v1/channels/';

/** Top-level folders of the output that belong to no channel. */
const SITE_FOLDERS: ReadonlySet<string> = new Set(['_astro', '_404', 'api', 'media', 'pagefind', 'search']);

/**
 * The channel an output file belongs to (its pages, lists, feeds, article
 * documents), or null for the site's own files.
 */
export function channelOfFile(file: string): string | null {
  if (file.startsWith(API_CHANNELS)) {
    const rest = file.slice(API_CHANNELS.length);
    const slash = rest.indexOf('/');
    const head = slash < 0 ? rest : rest.slice(0, slash);
    // `channels/{c}.json` is the channel's document; `channels/_lang/…` and `channels/_cursor/…` are the site's list.
    const channel = slash < 0 ? head.replace(/\.json$/, '') : head;
    return channel.startsWith('_') ? null : channel;
  }
  const slash = file.indexOf('/');
  if (slash < 0) return null;
  const head = file.slice(0, slash);
  return SITE_FOLDERS.has(head) ? null : head;
}

/** The tag of one output file (relative path, as `fileForRequest` gives it). */
export function fileTag(prefix: string, file: string): string {
  return `${prefix}:f:/${tagSafe(file)}`;
}

/** The tag of the answers rendered on demand for a channel, or for the site (`channel` null). */
export function queryTag(prefix: string, channel: string | null): string {
  return channel === null ? `${prefix}:q` : `${prefix}:q:${tagSafe(channel)}`;
}

/** The tag of every file of the search index. */
export function searchTag(prefix: string): string {
  return `${prefix}:s`;
}

/** The search index's folder in the output. */
const SEARCH_INDEX_FOLDER = 'pagefind/';

/** Tags of a static file's answer. */
export function tagsOfFile(prefix: string, file: string): CacheTags {
  return file.startsWith(SEARCH_INDEX_FOLDER) ? [prefix, searchTag(prefix), fileTag(prefix, file)] : [prefix, fileTag(prefix, file)];
}

/**
 * Tags of an answer the read API renders on demand for `pathname` (its
 * canonical spelling): a channel's query forms or the site's.
 */
export function tagsOfQueryAnswer(prefix: string, pathname: string): CacheTags {
  const relative = pathname.replace(/^\/+/, '');
  const channel = relative.startsWith(API_CHANNELS) ? channelOfFile(`${relative}.json`) : null;
  return [prefix, queryTag(prefix, channel)];
}

/**
 * What a build that wrote or removed `paths` must purge: each file's tag,
 * and the query forms of every channel they belong to and of the site.
 * Sorted, without duplicates.
 */
export function tagsToPurge(prefix: string, paths: Iterable<string>): string[] {
  const tags = new Set<string>();
  let any = false;
  for (const path of paths) {
    any = true;
    // Every file of the search index carries the search tag: one tag for a rebuild's hundreds of files.
    if (path.startsWith(SEARCH_INDEX_FOLDER)) {
      tags.add(searchTag(prefix));
      continue;
    }
    tags.add(fileTag(prefix, path));
    const channel = channelOfFile(path);
    if (channel !== null) tags.add(queryTag(prefix, channel));
  }
  if (any) tags.add(queryTag(prefix, null));
  return [...tags].sort();
}

/** The headers that carry tags: Cloudflare's `Cache-Tag` (commas) and Fastly's and Varnish's `Surrogate-Key` (spaces). */
export function cacheTagHeaders(tags: CacheTags): Record<string, string> {
  return { 'Cache-Tag': tags.join(','), 'Surrogate-Key': tags.join(' ') };
}

/**
 * A path as a tag: the output's names are ASCII without spaces or commas
 * (slugs, languages, cursors, hashed assets); anything else is
 * percent-encoded so a tag stays one token in both header syntaxes.
 */
function tagSafe(text: string): string {
  return /^[\x21-\x7e]*$/.test(text) && !/[,%]/.test(text) ? text : encodeURIComponent(text).replace(/%2F/g, '/');
}
