import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { manyScansJpeg } from '../../test/support/many-scans-jpeg.ts';
import { countJpegScans, MAX_JPEG_SCANS } from './jpeg-scans.ts';

describe('countJpegScans', () => {
  it('counts one scan in a baseline JPEG and a handful in a progressive one', async () => {
    const image = sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } });
    expect(countJpegScans(await image.clone().jpeg().toBuffer())).toBe(1);
    const progressive = countJpegScans(await image.clone().jpeg({ progressive: true }).toBuffer());
    expect(progressive).toBeGreaterThan(1);
    expect(progressive).toBeLessThan(20);
  });

  it('stops counting past the limit in a file of thousands of scans (and reads the right count below it)', () => {
    expect(countJpegScans(manyScansJpeg(64))).toBe(MAX_JPEG_SCANS + 1);
    expect(countJpegScans(manyScansJpeg(64), 5_000)).toBe(2_080);
  });

  it('answers 0 for what is not a JPEG, and stops at malformed structure', () => {
    expect(countJpegScans(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe(0);
    expect(countJpegScans(new Uint8Array([0xff, 0xd8, 0x00, 0x00, 0x00]))).toBe(0);
  });
});
