import { describe, expect, it } from 'vitest';
import { watermarkOverlay } from './watermark.ts';

describe('watermarkOverlay', () => {
  it('places the label in the bottom right corner, inside the image', () => {
    const overlay = watermarkOverlay(1600, 1067, 'The Daily Example')!;
    expect(overlay.left + overlay.width).toBeLessThan(1600);
    expect(overlay.top + overlay.height).toBeLessThan(1067);
    expect(overlay.left).toBeGreaterThan(800);
    expect(overlay.top).toBeGreaterThan(900);
    expect(overlay.svg).toContain('>The Daily Example</text>');
    expect(overlay.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+">/);
  });

  it('escapes the channel name as XML', () => {
    expect(watermarkOverlay(800, 600, 'A & B <script>"')!.svg).toContain('A &amp; B &lt;script&gt;&quot;');
  });

  it('shortens a long name so the label stays within 60 % of the width', () => {
    const overlay = watermarkOverlay(400, 300, 'A very long channel name that would cover the whole picture')!;
    expect(overlay.svg).toContain('…</text>');
    expect(overlay.width).toBeLessThanOrEqual(400 * 0.6 + 2);
  });

  it('gives up on images too small for a legible label', () => {
    expect(watermarkOverlay(40, 300, 'News')).toBeNull();
  });
});
