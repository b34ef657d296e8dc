import { describe, expect, it } from 'vitest';
import { sourceOf, summarise } from './profile-summary.ts';

describe('profile summary', () => {
  it('adds self time per function and per source, packages by name and our files by path', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('render', 'file:///x/server/render/page.ts'), children: [4] },
        { id: 3, callFrame: frame('parse', 'file:///x/node_modules/micromark/lib/index.js') },
        { id: 4, callFrame: frame('parse', 'file:///x/node_modules/micromark/lib/index.js') },
      ],
      samples: [2, 3, 3, 4],
      timeDeltas: [1000, 2000, 3000, 4000],
    };
    const { totalMs, byFunction, bySource } = summarise(profile);
    expect(totalMs).toBe(10);
    expect(bySource.get('micromark')).toBe(9);
    expect(bySource.get('server/render/page.ts')).toBe(1);
    expect(byFunction.get('parse micromark:1')).toBe(9);
  });

  it('names sources as the tables do', () => {
    expect(sourceOf('file:///p/node_modules/@astrojs/node/dist/a.js')).toBe('@astrojs/node');
    expect(sourceOf('node:fs')).toBe('node:fs');
    expect(sourceOf('')).toBe('(native)');
    expect(sourceOf('file:///p/src/lib/x.ts')).toBe('src/lib/x.ts');
  });
});
