import { describe, expect, it } from 'vitest';
import { bundleSourceEditor } from './source-editor-bundle.ts';

describe('the source editor bundle', () => {
  it('is deterministic, names no path of this machine and loads nothing from elsewhere', async () => {
    const [one, two] = [await bundleSourceEditor(), await bundleSourceEditor()];
    expect(one).toBe(two);
    expect(one.length).toBeGreaterThan(100_000);
    expect(one).not.toContain(process.cwd());
    // The only addresses in it are the licence's and the SVG namespace: no import(), no CDN.
    expect([...new Set(one.match(/https?:\/\/[^\s"'`)]+/g))].sort()).toEqual(['http://www.w3.org/2000/svg', 'https://codemirror.net']);
    expect(one).not.toMatch(/\bimport\(/);
    expect(one.startsWith('/* Pressroom dashboard: the source editor.')).toBe(true);
  }, 60_000);
});
