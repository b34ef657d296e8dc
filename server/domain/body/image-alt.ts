/**
 * The alt rule: every published image has an `alt` attribute. An image says
 * what it shows in its alt text (`![a photo of the harbour](…)`, or
 * `<img alt="…">`); an empty alt (`![](…)`, `alt=""`) marks it decorative,
 * and it is published with `alt=""`. An `<img>` with no `alt` attribute at
 * all is marked neither way: it is not published (and the write warns,
 * `BODY_IMAGE_ALT_MISSING`), so no page ever carries an image a screen
 * reader announces by its file name. Applied when a body is saved, to its
 * public Markdown, and when it is rendered (bodies stored before the rule).
 * @module
 */
import type { Parents, Root } from 'hast';

/** Removes every `img` without an `alt` attribute from `tree`; returns how many. */
export function removeImagesWithoutAlt(tree: Root): number {
  let removed = 0;
  const walk = (parent: Parents): void => {
    const kept = parent.children.filter((child) => {
      if (child.type !== 'element') return true;
      if (child.tagName === 'img' && (child.properties['alt'] === undefined || child.properties['alt'] === null)) {
        removed++;
        return false;
      }
      walk(child);
      return true;
    });
    if (kept.length !== parent.children.length) (parent as { children: typeof kept }).children = kept;
  };
  walk(tree);
  return removed;
}

/** The rehype plugin of the render chain (after sanitising): the rule for bodies stored before it. */
export function rehypeImagesNeedAlt() {
  return (tree: Root): void => void removeImagesWithoutAlt(tree);
}

/** `src` of each image of a rendered body (our own serialisation: double-quoted, in whatever order the body gave). */
const IMG_SRC = /<img\b[^>]*?\ssrc="([^"]*)"/g;

/**
 * The addresses of a rendered body's images that lead nowhere a reader can
 * load: relative ones (`photo.webp`, `../x.png`) resolve against the
 * article page's address, where no file is, and root-relative ones outside
 * `/media/` name no file of the site. Absolute http(s) addresses and
 * `/media/…` pass. Said in a write warning (`BODY_IMAGE_SRC_UNRESOLVED`);
 * the image is kept as written.
 */
export function unresolvedImageSources(html: string): string[] {
  const found: string[] = [];
  for (const [, raw] of html.matchAll(IMG_SRC)) {
    const src = raw!.replace(/&amp;/g, '&');
    if (/^https?:\/\//i.test(src) || src.startsWith('/media/')) continue;
    if (!found.includes(src)) found.push(src);
  }
  return found;
}
