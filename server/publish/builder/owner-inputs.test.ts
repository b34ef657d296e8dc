import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../paths.ts';
import { RENDER_SOURCES, renderCodeFingerprint } from './owner-inputs.ts';

describe('renderCodeFingerprint', () => {
  it('names sources that exist (a moved file would make every start re-render every article)', () => {
    for (const source of RENDER_SOURCES) expect(fs.existsSync(path.join(PROJECT_ROOT, source)), source).toBe(true);
  });

  it('is a stable hash of the sources, not the random fallback', () => {
    const first = renderCodeFingerprint();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(renderCodeFingerprint()).toBe(first);
  });
});
