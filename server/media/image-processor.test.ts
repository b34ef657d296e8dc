/**
 * The sharp processor on real images generated here: output format and size,
 * EXIF orientation, metadata stripping, focus crops, the watermark, and the
 * inputs it refuses.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { planImage } from '../domain/media/focus-crop.ts';
import { createSharpProcessor } from './image-processor.ts';
import { ImageInputError, type ImageShape, type ProcessOptions } from '../domain/media/image-port.ts';

const images = createSharpProcessor({ maxPixels: 24_000_000 });
const ARTICLE: ProcessOptions = { shape: { kind: 'fit', maxSide: 1600 }, watermark: null };

const solid = (width: number, height: number, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } });

/** Left half red, right half blue. */
async function halves(width: number, height: number): Promise<sharp.Sharp> {
  const right = await solid(Math.floor(width / 2), height, '#0000ff').png().toBuffer();
  return solid(width, height, '#ff0000').composite([{ input: right, left: width - Math.floor(width / 2), top: 0 }]);
}

/** Mean colour of a region of an encoded image. */
async function meanColour(data: Buffer, region?: sharp.Region): Promise<number[]> {
  // stats() reads its input, not the pipeline's result, so crop to a lossless buffer first.
  const cropped = region ? await sharp(data).extract(region).png().toBuffer() : data;
  const stats = await sharp(cropped).stats();
  return stats.channels.slice(0, 3).map((c) => Math.round(c.mean));
}

async function refusal(input: Uint8Array, options = ARTICLE): Promise<ImageInputError> {
  const error = await images.process(input, options).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImageInputError);
  return error as ImageInputError;
}

describe('article images', () => {
  it('are WebP, at most 1600 px on the longest side, never enlarged', async () => {
    const big = await images.process(await solid(3200, 1800).jpeg().toBuffer(), ARTICLE);
    expect({ format: (await sharp(big.data).metadata()).format, width: big.width, height: big.height }).toEqual({ format: 'webp', width: 1600, height: 900 });
    const small = await images.process(await solid(640, 480).png().toBuffer(), ARTICLE);
    expect([small.width, small.height, small.sourceFormat]).toEqual([640, 480, 'png']);
  });

  it('apply EXIF orientation and strip metadata', async () => {
    const input = await (await halves(300, 200)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const out = await images.process(input, ARTICLE);
    expect([out.width, out.height]).toEqual([200, 300]);
    const meta = await sharp(out.data).metadata();
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    // Orientation 6 turns the picture clockwise: the red left half is now on top.
    const [r, , b] = await meanColour(out.data, { left: 0, top: 0, width: 200, height: 100 });
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
  });

  it('carry a real watermark in the bottom right corner when asked', async () => {
    const input = await solid(1200, 800, '#ffffff').png().toBuffer();
    const plain = await images.process(input, ARTICLE);
    const marked = await images.process(input, { ...ARTICLE, watermark: 'Daily Example' });
    expect([plain.watermarked, marked.watermarked]).toEqual([false, true]);
    const corner = { left: 900, top: 700, width: 300, height: 100 };
    const [plainCorner, markedCorner] = [await meanColour(plain.data, corner), await meanColour(marked.data, corner)];
    expect(plainCorner[0]).toBeGreaterThan(250);
    expect(markedCorner[0]).toBeLessThan(235);
    const topLeft = { left: 0, top: 0, width: 300, height: 100 };
    expect(await meanColour(marked.data, topLeft)).toEqual(await meanColour(plain.data, topLeft));
  });
});

describe('focus crops', () => {
  const avatar = (x: number) => ({ shape: { kind: 'crop', width: 512, height: 512, focus: { x, y: 50 }, upscale: true }, watermark: null }) as const;

  it('make a 512 × 512 avatar around the focus point', async () => {
    const input = await (await halves(1200, 600)).png().toBuffer();
    const left = await images.process(input, avatar(0));
    const right = await images.process(input, avatar(100));
    const centre = await images.process(input, avatar(50));
    expect([left.width, left.height]).toEqual([512, 512]);
    expect(await meanColour(left.data)).toEqual([expect.toSatisfy((r: number) => r > 240), expect.any(Number), expect.toSatisfy((b: number) => b < 15)]);
    expect(await meanColour(right.data)).toEqual([expect.toSatisfy((r: number) => r < 15), expect.any(Number), expect.toSatisfy((b: number) => b > 240)]);
    const [r, , b] = await meanColour(centre.data);
    expect(Math.abs(r! - b!)).toBeLessThan(20);
  });
});

describe('odd aspect ratios (issue 18: a 1 × 1600 avatar used to be scaled to 512 × 819,200 first)', () => {
  const kinds: Record<string, ImageShape> = {
    avatar: { kind: 'crop', width: 512, height: 512, focus: { x: 50, y: 50 }, upscale: true },
    cover: { kind: 'crop', width: 1600, height: 900, focus: { x: 30, y: 70 }, upscale: false },
    article: { kind: 'fit', maxSide: 1600 },
  };
  const sizes = [[1, 1600], [1600, 1], [1, 800], [800, 1], [1, 1], [3, 60_000], [60_000, 3]] as const;
  const cases = Object.entries(kinds).flatMap(([kind, shape]) => sizes.map(([width, height]) => ({ kind, shape, width, height })));

  it.each(cases)('$kind from $width × $height: the planned size, no larger than the target', async ({ shape, width, height }) => {
    const input = await solid(width, height).png().toBuffer();
    const out = await images.process(input, { shape, watermark: null });
    const plan = planImage({ width, height }, shape);
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height]).toEqual([plan.output.width, plan.output.height]);
    expect([out.width, out.height]).toEqual([plan.output.width, plan.output.height]);
    const box = shape.kind === 'fit' ? { width: shape.maxSide, height: shape.maxSide } : shape;
    expect(out.width).toBeLessThanOrEqual(box.width);
    expect(out.height).toBeLessThanOrEqual(box.height);
    if (shape.kind === 'crop' && shape.upscale) expect([out.width, out.height]).toEqual([box.width, box.height]);
  });

  it('crop windows are taken in the oriented picture', async () => {
    // 300 × 200 turned a quarter (orientation 6) is 200 × 300 with the red half on top.
    const input = await (await halves(300, 200)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const shape = (y: number): ProcessOptions => ({ shape: { kind: 'crop', width: 512, height: 512, focus: { x: 50, y }, upscale: true }, watermark: null });
    const top = await images.process(input, shape(0));
    const bottom = await images.process(input, shape(100));
    expect([top.width, top.height]).toEqual([512, 512]);
    const region = { left: 0, top: 0, width: 512, height: 200 };
    expect((await meanColour(top.data, region))[0]).toBeGreaterThan(200);
    expect((await meanColour(bottom.data, { ...region, top: 312 }))[2]).toBeGreaterThan(200);
  });
});

describe('refused inputs', () => {
  it('more than the pixel limit, from the header alone', async () => {
    const error = await refusal(await solid(6001, 4000).png({ compressionLevel: 1 }).toBuffer());
    expect(error.problem).toBe('too_many_pixels');
    expect(error.info).toMatchObject({ width: 6001, height: 4000 });
  });

  it('bytes that are no image, and a truncated JPEG', async () => {
    expect((await refusal(new TextEncoder().encode('definitely not an image'))).problem).toBe('unreadable');
    const jpeg = await solid(400, 300).jpeg().toBuffer();
    expect((await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).problem).toBe('unreadable');
  });

  it('SVG, which is an image but not accepted', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    const error = await refusal(new TextEncoder().encode(svg));
    expect(error).toMatchObject({ problem: 'unsupported_format', info: { format: 'svg' } });
  });

  it('but a GIF is read (first frame) and stored as WebP', async () => {
    const out = await images.process(await solid(120, 80, '#00ff00').gif().toBuffer(), ARTICLE);
    expect([out.sourceFormat, out.width, out.height, (await sharp(out.data).metadata()).format]).toEqual(['gif', 120, 80, 'webp']);
  });
});

describe('pngRendition', () => {
  it('copies a stored avatar to PNG with the same size and colours (RSS <image> takes no WebP)', async () => {
    const avatar = await images.process(await solid(600, 600, '#aa3300').png().toBuffer(), { shape: { kind: 'crop', width: 512, height: 512, focus: { x: 50, y: 50 }, upscale: true }, watermark: null });
    const png = await images.pngRendition(avatar.data);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
    expect(await meanColour(png)).toEqual(await meanColour(avatar.data));
  });
});
