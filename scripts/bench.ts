/**
 * `npm run bench`: runs Pressroom's benchmarks, each in its own process,
 * repeats them, and prints one Markdown table (median and spread) plus a JSON
 * file with the machine's details. Not part of `npm test`; a smoke test runs
 * it at a tiny size so it cannot rot.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScriptArgs, wantsHelp } from './lib/cli.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A measurement: a script that prints one JSON result `{ name, wallMs, cpuMs,
 * peakRssMb }`, or an array of them, on stdout. It receives
 * `--articles N --languages L`.
 */
interface Measurement {
  readonly name: string;
  readonly description: string;
  readonly script: string;
}

const MEASUREMENTS: readonly Measurement[] = [
  { name: 'media', description: 'Process one 24 MP JPEG (6000×4000) into a watermarked 1600 px WebP', script: 'scripts/bench/media-bench.ts' },
  {
    name: 'build',
    description: 'Generated corpus: cold and warm full build, search index, publish → files p50/p95',
    script: 'scripts/bench/build-bench.ts',
  },
];

const HELP = `Usage: npm run bench -- [--only NAME] [--repeat N] [--out FILE] [--articles N] [--languages L]

Runs each benchmark in its own process, N times (default 3), and prints a
Markdown table with the median and spread of wall time, CPU time and peak
RSS, then writes the results with the machine's details to FILE
(default bench-results.json). The build benchmark generates a deterministic
corpus of --articles articles (default 1000) over 20 channels in --languages
languages (default 2; the second is Arabic) in a temp folder it removes.

Benchmarks:
${MEASUREMENTS.map((m) => `  ${m.name.padEnd(10)} ${m.description}`).join('\n')}

See docs/PERFORMANCE.md for what each figure means.
`;

interface Result {
  name: string;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

function parseOptions(args: string[]): { only: string | null; repeat: number; out: string; articles: number; languages: number } {
  const { values } = parseScriptArgs(
    'npm run bench --',
    {
      usage: '[--only NAME] [--repeat N] [--out FILE] [--articles N] [--languages L]',
      options: {
        only: { kind: 'value', placeholder: 'NAME', description: 'Run one benchmark.' },
        repeat: { kind: 'value', placeholder: 'N', description: 'Runs per benchmark (default 3).' },
        out: { kind: 'value', placeholder: 'FILE', description: 'Results file (default bench-results.json).' },
        articles: { kind: 'value', placeholder: 'N', description: 'Corpus size of the build benchmark (default 1000).' },
        languages: { kind: 'value', placeholder: 'L', description: 'Languages per article (default 2).' },
      },
      positionals: [],
    },
    args,
  );
  const only = values.only ?? null;
  const repeat = values.repeat === undefined ? 3 : Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 50) fail('--repeat takes a whole number from 1 to 50.');
  if (only && !MEASUREMENTS.some((m) => m.name === only)) fail(`No benchmark is named "${only}". Choose one of: ${MEASUREMENTS.map((m) => m.name).join(', ')}.`);
  const articles = values.articles === undefined ? 1000 : Number(values.articles);
  const languages = values.languages === undefined ? 2 : Number(values.languages);
  if (!Number.isInteger(articles) || articles < 1 || articles > 100_000) fail('--articles takes a whole number from 1 to 100000.');
  if (!Number.isInteger(languages) || languages < 1 || languages > 8) fail('--languages takes a whole number from 1 to 8.');
  return { only, repeat, out: values.out ?? 'bench-results.json', articles, languages };
}

function fail(message: string): never {
  process.stderr.write(`${message}\nSee npm run bench -- --help.\n`);
  process.exit(2);
}

const children = new Set<ReturnType<typeof spawn>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}

/** Runs one measurement in a fresh process and reads its JSON result. */
function runOnce(m: Measurement, corpus: { articles: number; languages: number }): Promise<Result[]> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', path.join(ROOT, m.script), '--articles', String(corpus.articles), '--languages', String(corpus.languages)];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`${m.name} exited with code ${code}`));
      try {
        const parsed = JSON.parse(out) as Result | Result[];
        // A single result is the measurement's own figure, named after it.
        resolve(Array.isArray(parsed) ? parsed : [{ ...parsed, name: m.name }]);
      } catch {
        reject(new Error(`${m.name} printed no JSON result: ${out.slice(0, 200)}`));
      }
    });
  });
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (n: number) => Math.round(n * 10) / 10;

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}
const options = parseOptions(process.argv.slice(2));
const selected = MEASUREMENTS.filter((m) => !options.only || m.name === options.only);
const rows: Array<{ name: string; description: string; runs: Result[] }> = [];
for (const m of selected) {
  // One script may report several figures; each becomes a row, keyed by its name.
  const byName = new Map<string, Result[]>();
  for (let i = 1; i <= options.repeat; i++) {
    process.stderr.write(`bench ${m.name}: run ${i}/${options.repeat}…\n`);
    for (const result of await runOnce(m, options)) byName.set(result.name, [...(byName.get(result.name) ?? []), result]);
  }
  for (const [name, runs] of byName) rows.push({ name, description: name === m.name ? m.description : '', runs });
}

const table = [
  '| Benchmark | Wall ms (median) | Wall spread | CPU ms (median) | Peak RSS MB (median) | Runs |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => {
    const wall = r.runs.map((x) => x.wallMs);
    return `| ${r.description ? `${r.name}: ${r.description}` : r.name} | ${round(median(wall))} | ${round(Math.min(...wall))}–${round(Math.max(...wall))} | ${round(median(r.runs.map((x) => x.cpuMs)))} | ${round(median(r.runs.map((x) => x.peakRssMb)))} | ${r.runs.length} |`;
  }),
].join('\n');
process.stdout.write(
  `\n${table}\n\nMachine: ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; corpus ${options.articles} articles × ${options.languages} languages\n`,
);
const results = {
  date: new Date().toISOString(),
  corpus: { articles: options.articles, languages: options.languages },
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  results: rows.map((r) => ({ name: r.name, description: r.description, median: { wallMs: median(r.runs.map((x) => x.wallMs)), cpuMs: median(r.runs.map((x) => x.cpuMs)), peakRssMb: median(r.runs.map((x) => x.peakRssMb)) }, runs: r.runs })),
};
const tmp = `${options.out}.tmp`;
fs.writeFileSync(tmp, `${JSON.stringify(results, null, 2)}\n`);
fs.renameSync(tmp, options.out);
process.stderr.write(`Results written to ${options.out}\n`);
