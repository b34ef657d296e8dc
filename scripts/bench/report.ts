/**
 * The harness's output: one Markdown table (median and spread of the runs)
 * and the results file with the machine's details.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import type { BenchFigure } from './run-measurement.ts';

/** Every run of one row of the table. */
export interface BenchRow {
  readonly name: string;
  readonly description: string;
  readonly runs: readonly BenchFigure[];
}

/** Median of the defined, finite values; null when there are none. */
export function median(values: ReadonlyArray<number | undefined>): number | null {
  const s = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const fmt = (n: number | null, digits = 1) => (n === null ? '' : String(Math.round(n * 10 ** digits) / 10 ** digits));

/** The Markdown table: wall/CPU/RSS for every row, plus requests/s, p99 and the nginx ratio for HTTP rows. */
export function markdownTable(rows: readonly BenchRow[]): string {
  const lines = rows.map((r) => {
    const label = r.description ? `${r.name}: ${r.description}` : r.name;
    const unavailable = r.runs.find((x) => x.unavailable)?.unavailable;
    if (unavailable) return `| ${label} | | | | | n/a (${unavailable}) | | | ${r.runs.length} |`;
    const wall = r.runs.map((x) => x.wallMs);
    const rps = median(r.runs.map((x) => x.requestsPerSec));
    const ratio = median(r.runs.map((x) => x.vsNginx));
    const cells = [
      label,
      fmt(median(wall)),
      `${fmt(Math.min(...wall))}–${fmt(Math.max(...wall))}`,
      fmt(median(r.runs.map((x) => x.cpuMs))),
      fmt(median(r.runs.map((x) => x.peakRssMb))),
      rps === null ? '' : fmt(rps, 0),
      fmt(median(r.runs.map((x) => x.p99Ms)), 2),
      ratio === null ? '' : `${fmt(ratio, 2)}×`,
      String(r.runs.length),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| Benchmark | Wall ms (median) | Wall spread | CPU ms (median) | Peak RSS MB (median) | Req/s (median) | p99 ms | Server / nginx | Runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...lines,
  ].join('\n');
}

/** The machine, as the results file and the table's footer describe it. */
export function machine(): { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string } {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** Writes the results file atomically (temp file + rename), so a reader never sees half of it. */
export function writeResults(file: string, corpus: { articles: number; languages: number }, options: Record<string, unknown>, rows: readonly BenchRow[]): void {
  const results = {
    date: new Date().toISOString(),
    corpus,
    options,
    machine: machine(),
    results: rows.map((r) => ({
      name: r.name,
      description: r.description,
      median: {
        wallMs: median(r.runs.map((x) => x.wallMs)),
        cpuMs: median(r.runs.map((x) => x.cpuMs)),
        peakRssMb: median(r.runs.map((x) => x.peakRssMb)),
        requestsPerSec: median(r.runs.map((x) => x.requestsPerSec)),
        p99Ms: median(r.runs.map((x) => x.p99Ms)),
        vsNginx: median(r.runs.map((x) => x.vsNginx)),
      },
      runs: r.runs,
    })),
  };
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(results, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
