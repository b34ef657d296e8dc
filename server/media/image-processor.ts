/**
 * Image decoding and encoding behind the narrowest interface the service
 * needs. This is the only module that imports sharp: swapping the library
 * touches this file alone.
 *
 * Every output is WebP with EXIF orientation applied and all metadata
 * stripped. The pixel limit is checked from the header before any pixel is
 * decoded, so a small file that expands to gigapixels costs nothing; so is
 * a JPEG's number of scans (`jpeg-scans.ts`), the one input whose decode
 * time no pixel limit bounds. Every
 * step then follows `planImage`: the kept window is cut out of the source
 * before it is scaled, so no intermediate is larger than the source or the
 * output, whatever the aspect ratio.
 * @module
 */
import sharp from 'sharp';
import { planImage, type ImagePlan, type Size } from '../domain/media/focus-crop.ts';
import { watermarkOverlay } from '../domain/media/watermark.ts';
import { ACCEPTED_INPUT_FORMATS, ImageInputError, type ImageProcessor, type ProcessedImage, type ProcessOptions, type ImageShape } from '../domain/media/image-port.ts';
import { InternalError } from '../internal-error.ts';
import { createFairGate } from '../fair-gate.ts';
import { countJpegScans, MAX_JPEG_SCANS } from './jpeg-scans.ts';

/** Settings of the sharp processor. */
export interface SharpProcessorOptions {
  /** Most pixels (width × height) an input may have. */
  readonly maxPixels: number;
  /** Images processed at once; a 24 MP decode needs tens of MB, so this bounds memory under load. */
  readonly maxConcurrent?: number;
  /** WebP quality, 1–100. */
  readonly quality?: number;
}

const coversSource = (window: ImagePlan['window'], source: Size) =>
  window.left === 0 && window.top === 0 && window.width === source.width && window.height === source.height;

/**
 * Creates the processor over sharp.
 * @example const images = createSharpProcessor({ maxPixels: 24_000_000 });
 */
export function createSharpProcessor(options: SharpProcessorOptions): ImageProcessor {
  // Every upload is a different image: libvips' operation cache only holds memory.
  sharp.cache(false);
  const quality = options.quality ?? 82;
  // Decodes at once, shared between the accounts waiting in turn: one account's burst waits behind itself.
  const gate = createFairGate({ slots: options.maxConcurrent ?? 2, perKey: 1, queuedPerKey: Infinity, retryAfterSeconds: 0 });

  async function probe(input: Uint8Array) {
    let meta: sharp.Metadata;
    try {
      meta = await sharp(input, { limitInputPixels: false }).metadata();
    } catch (error) {
      throw new ImageInputError('unreadable', `not a readable image (${(error as Error).message})`);
    }
    const { format, width, height } = meta;
    if (!format || !width || !height) throw new ImageInputError('unreadable', 'no image dimensions in the file');
    if (!ACCEPTED_INPUT_FORMATS.includes(format)) throw new ImageInputError('unsupported_format', `format ${format} is not accepted`, { format });
    if (width * height > options.maxPixels) {
      throw new ImageInputError('too_many_pixels', `${width}×${height} exceeds ${options.maxPixels} pixels`, { format, width, height });
    }
    // libjpeg walks every block once per scan, and nothing can stop it midway: thousands of scans are refused unread.
    if (format === 'jpeg') {
      const scans = countJpegScans(input);
      if (scans > MAX_JPEG_SCANS) throw new ImageInputError('too_complex', `more than ${MAX_JPEG_SCANS} scans`, { format, width, height, scans });
    }
    // Orientations 5–8 turn the picture a quarter: its displayed width is the stored height.
    const turned = (meta.orientation ?? 1) >= 5;
    return { format, width: turned ? height : width, height: turned ? width : height };
  }

  async function render(input: Uint8Array, opts: ProcessOptions): Promise<ProcessedImage> {
    const source = await probe(input);
    const plan = planImage(source, opts.shape);
    // failOn 'truncated' refuses cut-off uploads but tolerates the harmless warnings many cameras produce.
    // Orientation first, then the window (in oriented pixels), then the scale: sharp runs them in that order.
    let decoder = sharp(input, { limitInputPixels: options.maxPixels, failOn: 'truncated' }).rotate();
    if (!coversSource(plan.window, source)) decoder = decoder.extract(plan.window);
    if (plan.output.width !== plan.window.width || plan.output.height !== plan.window.height) {
      decoder = decoder.resize({ ...plan.output, fit: 'fill' });
    }
    // Raw pixels in between: the second step then knows the exact size to place the watermark on.
    const { data, info } = await decoder
      .raw()
      .toBuffer({ resolveWithObject: true })
      .catch((error: Error) => {
        // Only decoding failures are the input's fault; an error after this point is a bug (500).
        if (/pixel limit/i.test(error.message)) throw new ImageInputError('too_many_pixels', error.message);
        throw new ImageInputError('unreadable', `the image could not be decoded (${error.message})`, { format: source.format });
      });
    if (info.width !== plan.output.width || info.height !== plan.output.height) {
      throw new InternalError('IMAGE_PIPELINE_FAILED', `image pipeline produced ${info.width}×${info.height}, planned ${plan.output.width}×${plan.output.height}`);
    }
    let encoder = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const overlay = opts.watermark === null ? null : watermarkOverlay(info.width, info.height, opts.watermark);
    if (overlay) encoder = encoder.composite([{ input: Buffer.from(overlay.svg), left: overlay.left, top: overlay.top }]);
    const out = await encoder.webp({ quality, effort: 4 }).toBuffer({ resolveWithObject: true });
    return { data: out.data, format: 'webp', width: out.info.width, height: out.info.height, sourceFormat: source.format, watermarked: overlay !== null };
  }

  return {
    process: (input, opts) => gate.run(opts.queueKey ?? '', async () => render(typeof input === 'function' ? await input() : input, opts)),
    pngRendition: (stored) => gate.run('', () => sharp(stored, { limitInputPixels: options.maxPixels }).png({ compressionLevel: 9 }).toBuffer()),
  };
}
