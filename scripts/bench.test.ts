/** Smoke test of `npm run bench`: runs it once at the smallest size so it cannot rot. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

it('prints a table and writes the results file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-'));
  try {
    const out = path.join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--only', 'media', '--repeat', '1', '--out', out], { cwd: root, encoding: 'utf8' });
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
}, 60_000);
