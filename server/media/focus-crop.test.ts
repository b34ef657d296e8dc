import { describe, expect, it } from 'vitest';
import { fitInside, planFocusCrop } from './focus-crop.ts';

const AVATAR = { width: 512, height: 512 };
const COVER = { width: 1600, height: 900 };

describe('planFocusCrop', () => {
  it('crops a square avatar out of a landscape image around the focus', () => {
    const source = { width: 1200, height: 600 };
    expect(planFocusCrop(source, AVATAR, { x: 0, y: 50 }, true)).toEqual({
      resize: { width: 1024, height: 512 },
      extract: { left: 0, top: 0, width: 512, height: 512 },
    });
    expect(planFocusCrop(source, AVATAR, { x: 50, y: 50 }, true).extract.left).toBe(256);
    expect(planFocusCrop(source, AVATAR, { x: 100, y: 50 }, true).extract.left).toBe(512);
    // A focus near the edge is clamped: the window never leaves the picture.
    expect(planFocusCrop(source, AVATAR, { x: 90, y: 0 }, true).extract).toEqual({ left: 512, top: 0, width: 512, height: 512 });
  });

  it('enlarges a small avatar source when asked, so avatars are always 512 × 512', () => {
    const plan = planFocusCrop({ width: 300, height: 200 }, AVATAR, { x: 50, y: 50 }, true);
    expect(plan.extract).toMatchObject({ width: 512, height: 512 });
    expect(plan.resize).toEqual({ width: 768, height: 512 });
  });

  it('crops a 16:9 cover out of a portrait image around the vertical focus, never enlarging', () => {
    const source = { width: 800, height: 1200 };
    const top = planFocusCrop(source, COVER, { x: 50, y: 0 }, false);
    expect(top).toEqual({ resize: { width: 800, height: 1200 }, extract: { left: 0, top: 0, width: 800, height: 450 } });
    expect(planFocusCrop(source, COVER, { x: 50, y: 100 }, false).extract.top).toBe(750);
    expect(planFocusCrop(source, COVER, { x: 50, y: 50 }, false).extract.top).toBe(375);
  });

  it('scales a large cover source down to exactly the target size', () => {
    const plan = planFocusCrop({ width: 6000, height: 4000 }, COVER, { x: 50, y: 50 }, false);
    expect(plan.extract).toMatchObject({ width: 1600, height: 900 });
    expect(plan.resize).toEqual({ width: 1600, height: 1067 });
    expect(plan.extract.top).toBe(Math.round(1067 / 2 - 450));
  });

  it('keeps every window inside the resized image', () => {
    for (const [w, h] of [[1, 1], [513, 7], [7, 513], [6000, 4000], [4000, 6000], [1601, 899]] as const) {
      for (const focus of [{ x: 0, y: 0 }, { x: 33.3, y: 66.6 }, { x: 100, y: 100 }]) {
        for (const [target, upscale] of [[AVATAR, true], [COVER, false]] as const) {
          const { resize, extract } = planFocusCrop({ width: w, height: h }, target, focus, upscale);
          expect(extract.left + extract.width).toBeLessThanOrEqual(resize.width);
          expect(extract.top + extract.height).toBeLessThanOrEqual(resize.height);
          expect(Math.min(extract.left, extract.top, extract.width - 1, extract.height - 1)).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});

describe('fitInside', () => {
  it('fits the longest side, never enlarging', () => {
    expect(fitInside({ width: 6000, height: 4000 }, 1600)).toEqual({ width: 1600, height: 1067 });
    expect(fitInside({ width: 4000, height: 6000 }, 1600)).toEqual({ width: 1067, height: 1600 });
    expect(fitInside({ width: 640, height: 480 }, 1600)).toEqual({ width: 640, height: 480 });
  });
});
