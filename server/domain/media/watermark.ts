/**
 * The watermark: the channel's name on a translucent label in the bottom
 * right corner, drawn as SVG so the image library composites it like any
 * other layer. Pure: returns the SVG and where to put it.
 * @module
 */

/** Value of `watermark_type` for this watermark. */
export const WATERMARK_TYPE_CHANNEL_NAME = 'channel_name';

/** Value of `watermark_type` when no watermark was added. */
export const WATERMARK_TYPE_NONE = 'none';

/** An overlay to composite at (`left`, `top`). */
export interface WatermarkOverlay {
  readonly svg: string;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

// Images smaller than this on either side cannot hold a legible label.
const MIN_SIDE = 48;
// Average advance of a sans-serif glyph, as a fraction of the font size.
const GLYPH_WIDTH = 0.62;

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * Lays out the label for an image of `width` × `height`: the font scales with
 * the image, and a long name is shortened with an ellipsis so the label never
 * covers more than 60 % of the width.
 * @returns null when the image is too small for a legible label.
 */
export function watermarkOverlay(width: number, height: number, text: string): WatermarkOverlay | null {
  const shortSide = Math.min(width, height);
  if (shortSide < MIN_SIDE) return null;
  const fontSize = Math.min(64, Math.max(10, Math.round(shortSide * 0.045)));
  const padX = Math.round(fontSize * 0.6);
  const padY = Math.round(fontSize * 0.35);
  const maxChars = Math.floor((width * 0.6 - 2 * padX) / (fontSize * GLYPH_WIDTH));
  const clean = text.replace(/\s+/g, ' ').trim() || 'Pressroom';
  if (maxChars < 3) return null;
  const chars = [...clean];
  const label = chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join('')}…` : clean;
  const boxWidth = Math.min(width, Math.ceil([...label].length * fontSize * GLYPH_WIDTH) + 2 * padX);
  const boxHeight = Math.min(height, fontSize + 2 * padY);
  const margin = Math.round(shortSide * 0.02);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">` +
    `<rect width="${boxWidth}" height="${boxHeight}" rx="${Math.round(fontSize / 4)}" fill="#000" fill-opacity="0.45"/>` +
    `<text x="${boxWidth / 2}" y="${padY + Math.round(fontSize * 0.8)}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" ` +
    `font-size="${fontSize}" fill="#fff" fill-opacity="0.9" text-anchor="middle">${escapeXml(label)}</text></svg>`;
  return { svg, left: Math.max(0, width - boxWidth - margin), top: Math.max(0, height - boxHeight - margin), width: boxWidth, height: boxHeight };
}
