/**
 * The image of a published translation (public contract: Article `image`
 * `{url, alt}` or null; docs/OUTPUTS.md, "Article image"): the first image
 * of that translation's published body that is one of the article's own
 * uploaded images (attached to it, `server/domain/media/attach.ts`), with the alt
 * text the body gives it. An image from another site, a draft, or another
 * article's image is skipped: only an attached file has the size, type and
 * dimensions a feed enclosure and a link preview need, and only the body's
 * alt text went through moderation with the revision.
 *
 * Used by the public model (`server/read-model/public-model.ts`) and the
 * publishing API's article view, so both name the same image. The public
 * model reads a short slice of the stored, sanitised HTML from its
 * first `<img` (`IMAGE_SLICE_CHARS`), so a list of 10,000 articles reads a
 * few kilobytes each, not its bodies. The sanitised HTML is safe to scan
 * this way: `<img` there is always an element (text and code are escaped).
 * @module
 */
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/** Characters of stored HTML read from the first `<img`: enough for a few images with long alt texts. */
export const IMAGE_SLICE_CHARS = 4000;

/** The slice of rendered HTML the rule reads (the SQL in the public model cuts the same one): from the first `<img`, or null. */
export function imageSlice(html: string): string | null {
  const start = html.indexOf('<img');
  return start < 0 ? null : html.slice(start, start + IMAGE_SLICE_CHARS);
}

/** An image the body refers to, in order. */
export interface BodyImage {
  /** The media file name (`{channel}/{article}/{hash16}.webp`). */
  readonly fileName: string;
  readonly alt: string;
}

const parser = unified().use(rehypeParse, { fragment: true });

/**
 * The images of `html` (a slice of a body's sanitised HTML) that live in
 * the media folder of `channel`/`article`, in document order. A slice cut
 * inside a tag loses at most its last image.
 */
export function ownBodyImages(html: string | null, channel: string, article: string): BodyImage[] {
  if (!html) return [];
  const tags = imageTags(html);
  if (tags === '') return [];
  const prefix = `/media/${channel}/${article}/`;
  const images: BodyImage[] = [];
  // Only the `<img>` tags are parsed (their attributes decoded as the parser does): parsing the whole slice cost
  // 0.4 s of a 10,000 × 2 start, at every public state load.
  visit(parser.parse(tags) as Root, 'element', (node: Element) => {
    if (node.tagName !== 'img') return;
    const src = typeof node.properties.src === 'string' ? node.properties.src : '';
    // Relative (`/media/…`) or absolute on any host: the path names the file (the draft rewrite keeps the host too).
    let path: string;
    try {
      path = new URL(src, 'http://local.invalid').pathname;
    } catch {
      return;
    }
    const name = path.startsWith(prefix) ? path.slice('/media/'.length) : null;
    if (name && /^[0-9a-f]{16}\.webp$/.test(name.slice(prefix.length - '/media/'.length))) {
      images.push({ fileName: name, alt: typeof node.properties.alt === 'string' ? node.properties.alt : '' });
    }
  });
  return images;
}

/** A whole tag, its quoted attribute values included (`>` and `<` may stand in them unescaped). */
const TAG = /<\/?[a-zA-Z](?:[^>"']|"[^"]*"|'[^']*')*>/y;

/**
 * The `<img>` tags of a slice of serialised, sanitised HTML, in order and joined. Text there has no raw `<`
 * (escaped), so every `<` opens a tag; each tag is taken whole, so an `<img` inside another tag's attribute
 * value is never one. The scan stops at a tag cut by the slice's end.
 */
export function imageTags(html: string): string {
  let found = '';
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', TAG.lastIndex)) {
    TAG.lastIndex = at;
    const tag = TAG.exec(html);
    if (!tag) break;
    if (/^<img[\s/>]/i.test(tag[0])) found += tag[0];
  }
  return found;
}

/** What the image rule needs of a stored file (`listArticleImageFiles`). */
export interface ArticleImageFile {
  readonly file_name: string;
  readonly article_id: number | null;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The first of `images` that is a stored, attached file of article `articleId`
 * (`files`: the non-draft article images by name), or null.
 */
export function firstAttachedImage(
  images: readonly BodyImage[],
  articleId: number,
  files: ReadonlyMap<string, ArticleImageFile>,
): { readonly alt: string; readonly file: ArticleImageFile } | null {
  for (const image of images) {
    const file = files.get(image.fileName);
    if (file && file.article_id === articleId) return { alt: image.alt, file };
  }
  return null;
}
