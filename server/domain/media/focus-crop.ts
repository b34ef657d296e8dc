/**
 * What the image processor does to one picture, as plain arithmetic so it can
 * be tested without images: which window of the (oriented) source to keep and
 * the size to scale that window to.
 *
 * The window is cut out of the source before anything is scaled, so no step
 * of the pipeline ever holds more pixels than the source (already bounded by
 * the pixel limit) or the output (bounded by the target). Scaling the whole
 * source first and cropping afterwards is what let a 1 × 1600 avatar grow to
 * 512 × 819,200 pixels (issue 18).
 * @module
 */

/** Width and height in pixels. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/** A rectangle in source pixels. */
export interface Region {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** The output's shape: fit in a square (never enlarged), or a focus-point crop to an exact size. */
export type ImageShape =
  | { readonly kind: 'fit'; readonly maxSide: number }
  | { readonly kind: 'crop'; readonly width: number; readonly height: number; readonly focus: { x: number; y: number }; readonly upscale: boolean };

/** Cut `window` out of the oriented source, then scale it to `output`. */
export interface ImagePlan {
  readonly window: Region;
  readonly output: Size;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Plans a crop of `source` to the aspect ratio of `target` around a focus
 * point given in percent (0/0 top left, 50/50 centre, 100/100 bottom right).
 * The window is the largest one of that ratio that fits in the source; it is
 * scaled to `target`, or, when `upscale` is false and the window is smaller,
 * kept at its own size (never enlarged). The output is never larger than
 * `target`, whatever the source's aspect ratio.
 * @example planFocusCrop({ width: 1200, height: 600 }, { width: 512, height: 512 }, { x: 0, y: 50 }, true)
 * // { window: { left: 0, top: 0, width: 600, height: 600 }, output: { width: 512, height: 512 } }
 */
export function planFocusCrop(source: Size, target: Size, focus: { x: number; y: number }, upscale: boolean): ImagePlan {
  const ratio = target.width / target.height;
  // The largest window of the target's ratio inside the source, in whole source pixels (at least one).
  const wider = source.width / source.height > ratio;
  const width = wider ? clamp(Math.round(source.height * ratio), 1, source.width) : source.width;
  const height = wider ? source.height : clamp(Math.round(source.width / ratio), 1, source.height);
  const left = clamp(Math.round((clamp(focus.x, 0, 100) / 100) * source.width - width / 2), 0, source.width - width);
  const top = clamp(Math.round((clamp(focus.y, 0, 100) / 100) * source.height - height / 2), 0, source.height - height);
  const output = upscale || width >= target.width ? target : { width, height };
  return { window: { left, top, width, height }, output };
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

/**
 * The whole plan for one image of `source` size (after EXIF orientation):
 * the window to keep and the output size. The processor carries out exactly
 * this plan, so its bounds are the pipeline's bounds.
 * @example planImage({ width: 1, height: 1600 }, { kind: 'crop', width: 512, height: 512, focus: { x: 50, y: 50 }, upscale: true })
 * // { window: { left: 0, top: 800, width: 1, height: 1 }, output: { width: 512, height: 512 } }
 */
export function planImage(source: Size, shape: ImageShape): ImagePlan {
  if (shape.kind === 'crop') return planFocusCrop(source, shape, shape.focus, shape.upscale);
  return { window: { left: 0, top: 0, ...source }, output: fitInside(source, shape.maxSide) };
}
