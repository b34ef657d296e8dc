/**
 * Slug rules, shared by channels and articles.
 *
 * A slug is 1–80 characters of lowercase ASCII letters, digits and single
 * hyphens, starting and ending with a letter or digit. It is used as a path
 * segment and a file name, so it must be safe in both without escaping.
 * Generated slugs transliterate Latin accents and drop everything else.
 * @module
 */

/** A slug, unanchored: for patterns that hold one as a part (the hosts' rules for `/{channel}/…`). */
export const SLUG_BODY = '[a-z0-9]+(?:-[a-z0-9]+)*';
/** The slug pattern, also used by the zod schemas and the API docs. */
export const SLUG_PATTERN = new RegExp(`^${SLUG_BODY}$`);

/** Longest slug accepted. */
export const SLUG_MAX_LENGTH = 80;

/** Explains the slug rule in error messages. */
export const SLUG_RULE =
  'Use 1–80 lowercase letters a–z, digits and single hyphens, starting and ending with a letter or digit (for example "my-article-2").';

/** True when `value` is a valid slug. */
export function isSlug(value: string): boolean {
  return value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}

/**
 * Why an article slug may not be all digits: the publishing API addresses an
 * article by its slug or its numeric id in the same path segment
 * (`…/pages/{ref}`), and digits always mean the id.
 */
export const ARTICLE_SLUG_DIGITS_RULE =
  'An article slug cannot be only digits: …/pages/{ref} reads digits as the article id. Add a letter or a word (for example "issue-38").';

/**
 * True when `value` is a valid article slug: a slug that is not all digits,
 * so `…/pages/{ref}` can never mean two articles. Channels are addressed by
 * slug only and may use digits alone.
 */
export function isArticleSlug(value: string): boolean {
  return isSlug(value) && !/^\d+$/.test(value);
}

/**
 * Derives a slug from a title. Returns null when nothing usable remains
 * (for example an all-Arabic title); the caller then picks a fallback.
 * @example slugify('Ça va, Zoë?') // 'ca-va-zoe'
 */
export function slugify(title: string): string | null {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
  return slug.length > 0 ? slug : null;
}

/** The longest suffix a caller of {@link firstFreeSlug} must allow for when it looks up taken slugs by prefix (`-9999999`). */
export const GENERATED_SUFFIX_ROOM = 8;

/**
 * Picks the first free slug: `base`, then `base-2`, `base-3`…
 * @param taken answers whether a candidate is already used.
 */
export function firstFreeSlug(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, '') + suffix;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Channel slugs that would shadow the site's own top-level paths.
 * A channel may not use them; generated slugs skip them.
 */
export const RESERVED_CHANNEL_SLUGS: ReadonlySet<string> = new Set([
  '_astro', 'api', 'assets', 'dashboard', 'feeds', 'index', 'llms', 'media', 'pagefind', 'robots', 'rss', 'search', 'sitemap', 'static',
]);
