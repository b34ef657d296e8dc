/**
 * The port through which media rules use an image library: what the service
 * asks of it and the errors it may answer. The adapter is
 * `server/media/image-processor.ts` (sharp); tests may drive any other.
 * @module
 */
import type { ImageShape } from './focus-crop.ts';

export type { ImageShape } from './focus-crop.ts';

/** Why an input was refused. */
export type ImageInputProblem = 'unreadable' | 'unsupported_format' | 'too_many_pixels' | 'too_complex';

/** An input the processor refuses; the service maps it to an API error. */
export class ImageInputError extends Error {
  constructor(
    readonly problem: ImageInputProblem,
    message: string,
    readonly info: { format?: string; width?: number; height?: number; scans?: number } = {},
  ) {
    super(message);
    this.name = 'ImageInputError';
  }
}

/** What to make of one input. */
export interface ProcessOptions {
  readonly shape: ImageShape;
  /** Text of the watermark, or null for none. */
  readonly watermark: string | null;
  /** Whose work this is (the account): the processor shares its slots between them in turn. */
  readonly queueKey?: string;
}

/** The bytes of an input, or how to read them: a reader is called only once a slot is free, so waiting uploads hold no memory. */
export type ImageSource = Uint8Array | (() => Promise<Uint8Array>);

/** A stored-ready image. */
export interface ProcessedImage {
  readonly data: Buffer;
  readonly format: 'webp';
  readonly width: number;
  readonly height: number;
  /** Format of the input, as detected from its bytes. */
  readonly sourceFormat: string;
  /** False when a watermark was asked for but the image was too small to hold one. */
  readonly watermarked: boolean;
}

/** Turns uploaded bytes into a stored image. */
export interface ImageProcessor {
  /** @throws ImageInputError when the input is not a readable, accepted image within the pixel limit. */
  process(input: ImageSource, options: ProcessOptions): Promise<ProcessedImage>;
  /**
   * A PNG copy of an image this processor made (same pixels): RSS 2.0 allows a channel `<image>` only as GIF,
   * JPEG or PNG. PNG rather than JPEG because an avatar may be transparent.
   */
  pngRendition(stored: Uint8Array): Promise<Buffer>;
}

/** Input formats accepted (sharp's names; `heif` covers AVIF). SVG and PDF are refused: vector input has no fixed pixel size and may carry scripts. */
export const ACCEPTED_INPUT_FORMATS: readonly string[] = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif'];

