/**
 * The link-preview image of every page, and the tags that name it
 * (OpenGraph, X's card, JSON-LD). In this order: the page's own image (an
 * article translation's first image, a channel's cover); else the card the
 * build draws for the page (`server/render/social-card.ts`, when
 * `SiteInfo.socialCards`); else the channel's avatar; else the site's logo.
 * The cards' addresses follow the pages' (`server/serving/static-files.ts`:
 * `articleCard`, `channelCard`, `siteCard`, `logo`).
 * @module
 */
import type { SiteInfo } from '../../server/read-model/view-models.ts';
import type { HeadMeta } from './head.ts';
import { absoluteUrl } from './html-helpers.ts';

/** A preview image: an absolute URL, its size and type when known, and its text alternative. */
export interface PreviewImage {
  readonly url: string;
  readonly width: number | null;
  readonly height: number | null;
  readonly type: string | null;
  readonly alt: string;
}

/** The drawn cards' size and type (`server/render/social-card.ts`). */
const CARD = { width: 1200, height: 630, type: 'image/png' } as const;
/** The site logo's size (`LOGO_SIZE`). */
const LOGO = { width: 512, height: 512, type: 'image/png' } as const;

/** The card of an article translation's page, at its canonical address plus `.png`. */
export function articleCard(htmlUrl: string, alt: string): PreviewImage {
  return { url: `${htmlUrl}.png`, ...CARD, alt };
}

/** The card of a folder's page (a channel's `/{channel}/`, `/{channel}/{lang}/`; the homepage): `index.png` in it. */
export function folderCard(folderUrl: string, alt: string): PreviewImage {
  return { url: `${folderUrl.replace(/\/?$/, '/')}index.png`, ...CARD, alt };
}

/** The site's logo, drawn from its favicon. */
export function siteLogo(site: SiteInfo): PreviewImage {
  return { url: `${site.baseUrl}/logo.png`, ...LOGO, alt: site.name };
}

/** An image given by URL only (an avatar, a cover): size and type unknown. */
export function imageAt(url: string, alt: string, site: SiteInfo): PreviewImage {
  return { url: absoluteUrl(url, site), width: null, height: null, type: null, alt };
}

/** The site-wide preview (the homepage's card, else the logo): search and 404 pages. */
export function sitePreview(site: SiteInfo): PreviewImage {
  return site.socialCards ? folderCard(`${site.baseUrl}/`, site.name) : siteLogo(site);
}

/** `og:image` with its type, size and alt, and X's card (large for a card-sized image). */
export function previewMeta(image: PreviewImage): HeadMeta[] {
  const large = image.width === null || image.width >= 600;
  return [
    { property: 'og:image', content: image.url },
    ...(image.type ? [{ property: 'og:image:type', content: image.type }] : []),
    ...(image.width !== null && image.height !== null
      ? [
          { property: 'og:image:width', content: String(image.width) },
          { property: 'og:image:height', content: String(image.height) },
        ]
      : []),
    ...(image.alt ? [{ property: 'og:image:alt', content: image.alt }] : []),
    { name: 'twitter:card', content: large ? 'summary_large_image' : 'summary' },
    { name: 'twitter:image', content: image.url },
    ...(image.alt ? [{ name: 'twitter:image:alt', content: image.alt }] : []),
  ];
}

/** JSON-LD `ImageObject` of an image. */
export function imageObject(image: PreviewImage): Record<string, unknown> {
  return { '@type': 'ImageObject', url: image.url, ...(image.width !== null && image.height !== null ? { width: image.width, height: image.height } : {}) };
}
