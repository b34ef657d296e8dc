/**
 * A valid progressive JPEG that is cheap to send and slow to decode
 * (issue 40's probe: 4896 × 4896, 2,090 scans, under 24 MP, 16–18 s in
 * libjpeg): a grey picture coded as one DC scan and then, for each of
 * the three components and each of the 63 AC coefficients on its own, a
 * first scan and ten refinements, 2,080 scans in all. Every scan is a few
 * end-of-band runs, so the file is small, but the decoder walks all
 * 374,544 blocks of a component for each of them. No encoder writes such a
 * file (cjpeg's scan scripts stop at 100 scans), so it is assembled here,
 * marker by marker, with the smallest Huffman tables that hold its symbols.
 * @module
 */

/** Bits in, bytes out, with JPEG's byte stuffing (0xFF is followed by 0x00) and 1-bits padding the last byte. */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;
  put(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00);
    this.acc = 0;
    this.count = 0;
  }
  finish(): Buffer {
    if (this.count > 0) this.put(0xff >> this.count, 8 - this.count);
    return Buffer.from(this.bytes);
  }
}

function segment(marker: number, body: number[] | Buffer): Buffer {
  const data = Buffer.from(body);
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** The file: `size` × `size` pixels (default 4896: 23.97 MP). */
export function manyScansJpeg(size = 4896): Buffer {
  const blocks = Math.ceil(size / 8) ** 2;
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  parts.push(segment(0xdb, [0x00, ...new Array<number>(64).fill(1)])); // one quantisation table of ones
  parts.push(segment(0xc2, [8, size >> 8, size & 0xff, size >> 8, size & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])); // progressive, 3 × (1×1)
  // DC table 0: the one symbol "difference 0" as the 1-bit code 0. AC table 0: end-of-band runs EOB0…EOB14 as 4-bit codes.
  const dcCounts = [1, ...new Array<number>(15).fill(0)];
  const eobSymbols = Array.from({ length: 15 }, (_, r) => r << 4);
  const acCounts = [0, 0, 0, 15, ...new Array<number>(12).fill(0)];
  parts.push(segment(0xc4, [0x00, ...dcCounts, 0, 0x10, ...acCounts, ...eobSymbols]));
  // The DC scan, the three components interleaved: every difference is 0 (grey is 128, level-shifted to 0).
  parts.push(segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0x00]));
  const dc = new BitWriter();
  for (let i = 0; i < blocks * 3; i++) dc.put(0, 1);
  parts.push(dc.finish());
  // One scan per component, coefficient and bit: the whole band is one end-of-band run after another.
  const eobRuns = new BitWriter();
  for (let left = blocks; left > 0; ) {
    const run = Math.min(left, 32_767);
    const r = Math.floor(Math.log2(run));
    eobRuns.put(r, 4); // code of EOBr is r in 4 bits (canonical order)
    eobRuns.put(run - (1 << r), r);
    left -= run;
  }
  const runs = eobRuns.finish();
  for (let component = 1; component <= 3; component++) {
    for (let k = 1; k <= 63; k++) {
      for (let al = 10; al >= 0; al--) {
        const ah = al === 10 ? 0 : al + 1;
        parts.push(segment(0xda, [1, component, 0x00, k, k, (ah << 4) | al]), runs);
      }
    }
  }
  parts.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}
