/**
 * Benchmark of image processing: a 24-megapixel JPEG (6000 × 4000, the
 * largest accepted) through the service's ImageProcessor as a watermarked
 * article image (1600 px WebP), the worst case of an upload.
 *
 * The input is generated in memory and deterministic (a colour gradient with
 * seeded noise, so it compresses like a photograph rather than a flat fill).
 * Peak RSS is sampled while processing runs, so the cost of generating the
 * input is not counted.
 *
 * Run directly to print the result as JSON: `npx tsx scripts/bench/media-bench.ts`.
 * @module
 */
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { createSharpProcessor } from '../../server/media/image-processor.ts';
import { ARTICLE_MAX_SIDE, MAX_IMAGE_PIXELS } from '../../server/domain/media/media-kit.ts';

/** One benchmark result, as the bench harness collects them. */
export interface BenchResult {
  name: string;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

const WIDTH = 6000;
const HEIGHT = 4000;
const TILE = 256;

/** xorshift32: the same noise on every run and machine. */
function noiseTile(seed: number): Buffer {
  const tile = Buffer.alloc(TILE * TILE * 3);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < tile.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    tile[i] = 96 + ((x >>> 0) % 64);
  }
  return tile;
}

/**
 * Builds the 24 MP test JPEG. Benchmark-only code may use sharp directly; the
 * service reaches it only through server/media/image-processor.ts.
 */
export async function makeTestJpeg(): Promise<Buffer> {
  // A 4 × 3 colour grid scaled up smoothly becomes a full-frame gradient.
  const corners = Buffer.from([200, 40, 40, 40, 160, 60, 30, 60, 200, 220, 200, 40, 90, 20, 120, 20, 200, 200, 250, 250, 250, 10, 10, 10, 120, 90, 60, 60, 90, 120, 180, 180, 30, 30, 30, 180]);
  const gradient = sharp(corners, { raw: { width: 4, height: 3, channels: 3 } }).resize(WIDTH, HEIGHT, { kernel: 'cubic', fit: 'fill' });
  const noise = await sharp(noiseTile(0x5eed), { raw: { width: TILE, height: TILE, channels: 3 } }).png().toBuffer();
  // One streaming pipeline: libvips never holds the whole 72 MB frame, so generation leaves little behind in RSS.
  return gradient.composite([{ input: noise, tile: true, blend: 'overlay' }]).jpeg({ quality: 88 }).toBuffer();
}

/** Processes the 24 MP JPEG once and measures wall time, CPU time (all threads) and peak RSS. */
export async function benchImageProcessing(): Promise<BenchResult> {
  const input = await makeTestJpeg();
  const processor = createSharpProcessor({ maxPixels: MAX_IMAGE_PIXELS });
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  // libvips works on its own threads, so the event loop is free to sample.
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  try {
    const out = await processor.process(input, { shape: { kind: 'fit', maxSide: ARTICLE_MAX_SIDE }, watermark: 'Pressroom Benchmark' });
    if (out.width !== ARTICLE_MAX_SIDE || out.format !== 'webp') throw new Error(`unexpected output ${out.width}×${out.height} ${out.format}`);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  peak = Math.max(peak, process.memoryUsage.rss());
  return {
    name: `media: ${WIDTH}×${HEIGHT} JPEG (${(input.length / 1024 / 1024).toFixed(1)} MB) → ${ARTICLE_MAX_SIDE} px WebP, watermarked`,
    wallMs: Math.round(wallMs * 10) / 10,
    cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10,
    peakRssMb: Math.round((peak / 1024 / 1024) * 10) / 10,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchImageProcessing(), null, 2));
}
