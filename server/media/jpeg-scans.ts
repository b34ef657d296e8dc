/**
 * How many scans a JPEG has, read from its markers without decoding it.
 * libjpeg decodes a progressive JPEG by walking every block of the picture
 * once per scan, so a file of a few hundred kilobytes with thousands of
 * tiny scans holds a decoder for tens of seconds (issue 40: 2,090 scans,
 * 16–18 s; `test/support/many-scans-jpeg.ts` makes one), and libvips'
 * timeout cannot stop it (it is never asked in between). The count is
 * linear in the file's size and stops at the first scan over the limit.
 * @module
 */

/** More scans than an image needs: cjpeg's own scan scripts stop at 100; encoders write about 10. */
export const MAX_JPEG_SCANS = 100;

/**
 * The number of start-of-scan markers in `bytes`, counting up to `stopAfter + 1`; 0 for a file that is not a
 * JPEG. Malformed structure ends the count (the decoder then says what is wrong with the file).
 */
export function countJpegScans(bytes: Uint8Array, stopAfter = MAX_JPEG_SCANS): number {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return 0;
  let scans = 0;
  let i = 2;
  while (i + 3 < bytes.length) {
    if (bytes[i] !== 0xff) return scans;
    const marker = bytes[i + 1]!;
    // Fill bytes before a marker, and markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9) return scans; // end of image
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (length < 2) return scans;
    i += 2 + length;
    if (marker !== 0xda) continue;
    if (++scans > stopAfter) return scans;
    // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
    while (i + 1 < bytes.length && !(bytes[i] === 0xff && bytes[i + 1] !== 0x00 && !(bytes[i + 1]! >= 0xd0 && bytes[i + 1]! <= 0xd7))) i++;
  }
  return scans;
}
