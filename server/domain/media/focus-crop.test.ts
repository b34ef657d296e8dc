import { describe, expect, it } from 'vitest';
import { fitInside, planFocusCrop, planImage, type ImageShape, type Size } from './focus-crop.ts';

const AVATAR = { width: 512, height: 512 };
const COVER = { width: 1600, height: 900 };

describe('planFocusCrop', () => {
  it('crops a square avatar out of a landscape image around the focus', () => {
    const source = { width: 1200, height: 600 };
    expect(planFocusCrop(source, AVATAR, { x: 0, y: 50 }, true)).toEqual({
      window: { left: 0, top: 0, width: 600, height: 600 },
      output: { width: 512, height: 512 },
    });
    expect(planFocusCrop(source, AVATAR, { x: 50, y: 50 }, true).window.left).toBe(300);
    expect(planFocusCrop(source, AVATAR, { x: 100, y: 50 }, true).window.left).toBe(600);
    // A focus near the edge is clamped: the window never leaves the picture.
    expect(planFocusCrop(source, AVATAR, { x: 90, y: 0 }, true).window).toEqual({ left: 600, top: 0, width: 600, height: 600 });
  });

  it('enlarges a small avatar source when asked, so avatars are always 512 × 512', () => {
    const plan = planFocusCrop({ width: 300, height: 200 }, AVATAR, { x: 50, y: 50 }, true);
    expect(plan).toEqual({ window: { left: 50, top: 0, width: 200, height: 200 }, output: AVATAR });
  });

  it('crops a 16:9 cover out of a portrait image around the vertical focus, never enlarging', () => {
    const source = { width: 800, height: 1200 };
    const top = planFocusCrop(source, COVER, { x: 50, y: 0 }, false);
    expect(top).toEqual({ window: { left: 0, top: 0, width: 800, height: 450 }, output: { width: 800, height: 450 } });
    expect(planFocusCrop(source, COVER, { x: 50, y: 100 }, false).window.top).toBe(750);
    expect(planFocusCrop(source, COVER, { x: 50, y: 50 }, false).window.top).toBe(375);
  });

  it('scales a large cover source down to exactly the target size', () => {
    const plan = planFocusCrop({ width: 6000, height: 4000 }, COVER, { x: 50, y: 50 }, false);
    expect(plan).toEqual({ window: { left: 0, top: Math.round(2000 - 3375 / 2), width: 6000, height: 3375 }, output: COVER });
  });
});

describe('planImage bounds every step, whatever the aspect ratio (issue 18)', () => {
  const shapes: Record<string, ImageShape> = {
    avatar: { kind: 'crop', ...AVATAR, focus: { x: 50, y: 50 }, upscale: true },
    'avatar, corner focus': { kind: 'crop', ...AVATAR, focus: { x: 100, y: 0 }, upscale: true },
    cover: { kind: 'crop', ...COVER, focus: { x: 50, y: 50 }, upscale: false },
    'cover, corner focus': { kind: 'crop', ...COVER, focus: { x: 0, y: 100 }, upscale: false },
    article: { kind: 'fit', maxSide: 1600 },
  };
  const sources: Size[] = [
    { width: 1, height: 1 }, { width: 1, height: 1600 }, { width: 1600, height: 1 }, { width: 1, height: 800 }, { width: 800, height: 1 },
    { width: 2, height: 12_000_000 }, { width: 24_000_000, height: 1 }, { width: 513, height: 7 }, { width: 7, height: 513 },
    { width: 6000, height: 4000 }, { width: 4000, height: 6000 }, { width: 1601, height: 899 },
  ];
  const box = (shape: ImageShape): Size => (shape.kind === 'fit' ? { width: shape.maxSide, height: shape.maxSide } : shape);

  for (const [name, shape] of Object.entries(shapes)) {
    it.each(sources)(`${name}: $width × $height`, (source) => {
      const { window, output } = planImage(source, shape);
      // The window lies in the source, has pixels, and is no larger than it.
      expect(Math.min(window.left, window.top, window.width - 1, window.height - 1)).toBeGreaterThanOrEqual(0);
      expect(window.left + window.width).toBeLessThanOrEqual(source.width);
      expect(window.top + window.height).toBeLessThanOrEqual(source.height);
      // The output fits the target: nothing is ever scaled beyond it.
      expect(output.width).toBeGreaterThanOrEqual(1);
      expect(output.height).toBeGreaterThanOrEqual(1);
      expect(output.width).toBeLessThanOrEqual(box(shape).width);
      expect(output.height).toBeLessThanOrEqual(box(shape).height);
      if (shape.kind === 'crop' && shape.upscale) expect(output).toEqual(box(shape));
      // Without upscaling, the output never has more pixels than the window it came from.
      if (shape.kind === 'fit' || !shape.upscale) expect(output.width * output.height).toBeLessThanOrEqual(window.width * window.height);
    });
  }
});

describe('fitInside', () => {
  it('fits the longest side, never enlarging', () => {
    expect(fitInside({ width: 6000, height: 4000 }, 1600)).toEqual({ width: 1600, height: 1067 });
    expect(fitInside({ width: 4000, height: 6000 }, 1600)).toEqual({ width: 1067, height: 1600 });
    expect(fitInside({ width: 640, height: 480 }, 1600)).toEqual({ width: 640, height: 480 });
    expect(fitInside({ width: 1, height: 20_000 }, 1600)).toEqual({ width: 1, height: 1600 });
  });
});
