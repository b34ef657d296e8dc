/** Smoke test of `npm run bench`: runs it once at the smallest size so it cannot rot. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

it('prints a table and writes the results file, for the media and the build benchmarks', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-'));
  try {
    const out = path.join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--only', 'media', '--repeat', '1', '--out', out], { cwd: root, encoding: 'utf8' });
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--only', 'build', '--repeat', '1', '--articles', '20', '--out', path.join(dir, 'build.json')], { cwd: root, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    for (const row of ['build-cold (20×2)', 'build-warm (20×2)', 'search-index (20×2)', 'publish-to-files p50 (20×2)', 'publish-to-files p95 (20×2)']) {
      expect(build.stdout).toContain(`| ${row} |`);
    }
    const buildResults = JSON.parse(fs.readFileSync(path.join(dir, 'build.json'), 'utf8'));
    expect(buildResults.corpus).toEqual({ articles: 20, languages: 2 });
    // A warm full build writes nothing.
    expect(buildResults.results.find((r: { name: string }) => r.name.startsWith('build-warm')).runs[0].files).toBe(0);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\| media: .* \| \d+(\.\d)? \|/);
    const results = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(results.machine.cpus).toBeGreaterThan(0);
    expect(results.results[0]).toMatchObject({ name: 'media', runs: [expect.objectContaining({ wallMs: expect.any(Number), peakRssMb: expect.any(Number) })] });
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run bench');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--only', 'nope'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('No benchmark is named "nope"');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
