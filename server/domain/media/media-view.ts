/**
 * The Image response of the publishing API, with snippets ready to paste
 * into an article body.
 * @module
 */
import { escapeMarkdownText, markdownLinkDestination } from '../body/markdown-escape.ts';
import type { MediaRow } from '../../store/media.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';

/** An uploaded image as the API returns it. */
export interface ImageView {
  id: number;
  url: string;
  alt: string;
  width: number;
  height: number;
  markdown: string;
  html: string;
  watermark_applied: boolean;
  watermark_type: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Builds the response. `alt` is the text of this upload (an identical file
 * uploaded again keeps one row but answers with the alt just sent).
 */
export function toImageView(row: MediaRow, urls: PublicUrls, alt: string = row.alt): ImageView {
  const url = urls.media(row.file_name);
  return {
    id: row.id,
    url,
    alt,
    width: row.width,
    height: row.height,
    // Escaped so alt text stays text (no early `]`, link, HTML or code span) and the URL one destination.
    markdown: `![${escapeMarkdownText(alt)}](${markdownLinkDestination(url)})`,
    html: `<figure><img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}" width="${row.width}" height="${row.height}"></figure>`,
    watermark_applied: row.watermark_applied === 1,
    watermark_type: row.watermark_type,
  };
}
