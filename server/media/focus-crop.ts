/**
 * Focus-point cropping, as plain arithmetic so it can be tested without
 * images: which size to scale the whole picture to, and which window to cut
 * out of it so the focus point is as central as the edges allow.
 * @module
 */

/** Width and height in pixels. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/** Scale the oriented image to `resize`, then cut out `extract`. */
export interface CropPlan {
  readonly resize: Size;
  readonly extract: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Plans a crop of `source` to the aspect ratio of `target` around a focus
 * point given in percent (0/0 top left, 50/50 centre, 100/100 bottom right).
 * The window is the largest one of that ratio that fits; it is scaled to
 * `target`, or, when `upscale` is false and the window is smaller, kept at its
 * own size (never enlarged).
 * @example planFocusCrop({ width: 1200, height: 600 }, { width: 512, height: 512 }, { x: 0, y: 50 }, true)
 * // { resize: { width: 1024, height: 512 }, extract: { left: 0, top: 0, width: 512, height: 512 } }
 */
export function planFocusCrop(source: Size, target: Size, focus: { x: number; y: number }, upscale: boolean): CropPlan {
  const ratio = target.width / target.height;
  // The largest window of the target's ratio inside the source, in source pixels.
  const windowWidth = Math.min(source.width, source.height * ratio);
  const fullScale = target.width / windowWidth;
  const scale = upscale ? fullScale : Math.min(1, fullScale);
  const exact = scale === fullScale;
  const out: Size = exact
    ? target
    : { width: Math.max(1, Math.round(windowWidth * scale)), height: Math.max(1, Math.round((windowWidth / ratio) * scale)) };
  const resize: Size = {
    width: Math.max(out.width, Math.round(source.width * scale)),
    height: Math.max(out.height, Math.round(source.height * scale)),
  };
  const left = clamp(Math.round((clamp(focus.x, 0, 100) / 100) * resize.width - out.width / 2), 0, resize.width - out.width);
  const top = clamp(Math.round((clamp(focus.y, 0, 100) / 100) * resize.height - out.height / 2), 0, resize.height - out.height);
  return { resize, extract: { left, top, width: out.width, height: out.height } };
}

/**
 * The size of `source` scaled to fit in a `maxSide` square, never enlarged.
 * Matches what the processor produces for article images, for callers that
 * need to know it in advance (tests, snippets).
 */
export function fitInside(source: Size, maxSide: number): Size {
  const scale = Math.min(1, maxSide / Math.max(source.width, source.height));
  return { width: Math.max(1, Math.round(source.width * scale)), height: Math.max(1, Math.round(source.height * scale)) };
}
