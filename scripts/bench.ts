/**
 * `npm run bench`: runs Pressroom's benchmarks, each in its own process,
 * repeats them, and prints one Markdown table (median and spread) plus a JSON
 * file with the machine's details. Not part of `npm test`; a smoke test runs
 * it at a tiny size so it cannot rot. Ctrl-C stops every process it started
 * and removes every temp folder (exit code 130).
 */
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/paths.ts';
import { markdownTable, writeResults, type BenchRow } from './bench/report.ts';
import { runMeasurement, stopAll, type BenchFigure } from './bench/run-measurement.ts';
import { parseScriptArgs, wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';

const ROOT = PROJECT_ROOT;

interface Options {
  only: string | null;
  repeat: number;
  out: string;
  articles: number;
  languages: number;
  channels: number;
  duration: number;
  warmup: number;
  connections: number;
  bodyScale: number;
  loops: number;
  /** Web instances beside the server in the failover benchmark's spread writes. */
  webInstances: number;
  /** Folder for the build benchmark's CPU profiles, or null. */
  profile: string | null;
  corpus: string | null;
}

/**
 * A measurement: a script that prints one JSON figure `{ name, wallMs, cpuMs,
 * peakRssMb }`, or an array of them, on stdout. It receives `args(options)`.
 */
interface Measurement {
  readonly name: string;
  readonly description: string;
  readonly script: string;
  readonly args: (o: Options) => string[];
}

const corpusArgs = (o: Options) => ['--articles', String(o.articles), '--languages', String(o.languages)];
const buildArgs = (o: Options) => [...corpusArgs(o), '--channels', String(o.channels), '--loops', String(Math.min(o.loops, 50)), ...(o.profile ? ['--profile', o.profile] : []), ...(o.corpus ? ['--corpus', o.corpus] : [])];

const MEASUREMENTS: readonly Measurement[] = [
  { name: 'media', description: 'Process one 24 MP JPEG (6000×4000) into a watermarked 1600 px WebP', script: 'scripts/bench/media-bench.ts', args: () => [] },
  {
    name: 'build',
    description: 'Generated corpus: cold and warm full build, search index, publish → files p50/p95',
    script: 'scripts/bench/build-bench.ts',
    args: buildArgs,
  },
  {
    name: 'build-postgres',
    description: 'The build benchmark with the data in Postgres (a throwaway cluster of Debian\'s postgresql; the corpus copied as `npm run migrate -- --copy-to` copies it): beside the `build` rows, SQLite and Postgres side by side',
    script: 'scripts/bench/build-bench.ts',
    args: (o) => [...buildArgs(o), '--store', 'postgres'],
  },
  {
    name: 'jobs',
    description: 'The job queue on both stores (SQLite\'s jobs table, graphile-worker on a throwaway Postgres): committed → handler p50/p95 over --loops jobs (at most 500), due → handler for jobs queued for later, a killed holder\'s job → run by the next worker',
    script: 'scripts/bench/jobs-bench.ts',
    args: (o) => ['--loops', String(o.loops)],
  },
  {
    name: 'failover',
    description: 'One npm start per store: writes/s with --connections clients publishing for --duration s, SQLite and Postgres, and on Postgres spread over the server and two web instances (PRESSROOM_ROLE=web); then a standby beside the server, the server killed (SIGKILL): → the standby answers, → the last acknowledged publish reads published there',
    script: 'scripts/bench/failover-bench.ts',
    args: (o) => ['--duration', String(o.duration), '--connections', String(Math.min(o.connections, 16)), '--web-instances', String(o.webInstances)],
  },
  {
    name: 'bodies',
    description: 'Hostile bodies of issues 18 and 40: time per body in place, the slowest concurrent GET while the server saves it, growth of the shapes that were quadratic, another account\'s draft beside one account\'s burst, 120 parallel 9.4 MB uploads beside a reader; and issue 36\'s ordinary Markdown of 100 KB, 1 MB and 20 MB: MB/s in place and the save time',
    script: 'scripts/bench/body-bench.ts',
    args: (o) => ['--scale', String(o.bodyScale)],
  },
  {
    name: 'http',
    description: 'Reads from the bundled server and from nginx (wrk): article JSON, ?lang=ar, search',
    script: 'scripts/bench/http-bench.ts',
    args: (o) => [...corpusArgs(o), '--duration', String(o.duration), '--warmup', String(o.warmup), '--connections', String(o.connections)],
  },
  {
    name: 'edge',
    description: 'Generated corpus behind Varnish and a bucket (s3rver): full sync to the bucket; publish → object in the bucket, → fresh at Varnish, → published reported p50/p95; purge requests per publish',
    script: 'scripts/bench/edge-bench.ts',
    args: (o) => [...corpusArgs(o), '--loops', String(Math.min(o.loops, 50)), ...(o.corpus ? ['--corpus', o.corpus] : [])],
  },
  {
    name: 'reads',
    description: 'The read API at the full corpus size: start → search answers; article JSON idle and while publishing 2/s; include=html; ?limit=7 lists and cursor pages against nginx',
    script: 'scripts/bench/reads-bench.ts',
    args: (o) => [...corpusArgs(o), '--duration', String(o.duration), '--warmup', String(o.warmup), '--connections', String(o.connections), ...(o.corpus ? ['--corpus', o.corpus] : [])],
  },
  {
    name: 'read-your-writes',
    description: 'Publish → poll until published → read every address, and withdraw → 404, with the build on; write → published p50/p95, failures (must be 0)',
    script: 'scripts/bench/read-your-writes-bench.ts',
    args: (o) => ['--loops', String(o.loops)],
  },
  {
    name: 'dashboard',
    description: 'The dashboard over HTTP, signed in, static build on, largest channel: article list (first page, ?state=, ?q= a few and none), editor page, source editor bundle (first build, size), save, autosave, publish preview of a draft and of a revision, p50/p95',
    script: 'scripts/bench/dashboard-bench.ts',
    args: (o) => [...corpusArgs(o), ...(o.corpus ? ['--corpus', o.corpus] : [])],
  },
  {
    name: 'migrate',
    description: 'A database at migration 0012 filled through SQL (--articles × --languages, ~1,200-word bodies), migrated to the latest version by a process of its own: wall, CPU, peak RSS, rows rebuilt per second',
    script: 'scripts/bench/migrate-bench.ts',
    args: corpusArgs,
  },
];

const USAGE = '[--only NAME] [--repeat N] [--out FILE] [--articles N] [--languages L] [--channels C] [--duration S] [--warmup S] [--connections C] [--body-scale P] [--loops N] [--profile DIR] [--corpus DIR]';
const HELP = `Usage: npm run bench -- ${USAGE}

Runs each benchmark in its own process, N times (default 3), and prints a
Markdown table with the median and spread of wall time, CPU time and peak
RSS (and requests/s, p99 latency and the server/nginx ratio for HTTP rows),
then writes every run with the machine's details to FILE
(default bench-results.json). The corpus is deterministic: --articles
articles (default 1000) over 20 channels (--channels, build benchmark only)
in --languages languages (default 2;
the second is Arabic), generated in a temp folder that is removed afterwards.
The http benchmark uses min(--articles, 500) articles in at least 2 languages
and measures each address for --duration seconds (default 5) after --warmup
seconds of unmeasured load (default 1), with --connections connections
(default 32). The bodies benchmark runs its inputs at --body-scale percent
of their size in issue 18 (default 100). The read-your-writes benchmark runs
--loops publish → read and withdraw → 404 loops (default 200); the build
benchmark times min(--loops, 50) publishes for each of its latency rows, and
the edge benchmark publishes min(--loops, 50) articles one after the other behind
Varnish and a bucket (needs Debian's varnish and varnish-modules). The
dashboard benchmark signs in through the form and times 30 requests of each
row after 3 unmeasured ones (fewer once a row passes 60 s). The migrate
benchmark fills a database at migration 0012 with --articles articles in
--languages languages through SQL and times the upgrade to the latest
version (0013 rebuilds the article tables). With
--profile DIR the build benchmark writes a V8 CPU profile of each of its
phases (cold, warm, search, publish, new article, search fresh; the Node
process's main thread) to DIR; npm run profile:summary reads them. With
--corpus DIR the build, edge, reads and dashboard benchmarks copy a kept corpus instead of writing one
(write it once: tsx scripts/bench/corpus.ts --data DIR/data --articles N
--languages L --channels C; it must match those options): how the 100,000-
article runs are made.

Benchmarks:
${MEASUREMENTS.map((m) => `  ${m.name.padEnd(10)} ${m.description}`).join('\n')}

See docs/PERFORMANCE.md for what each figure means.
`;

function wholeNumber(value: string | undefined, fallback: number, min: number, max: number, option: string): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${option} takes a whole number from ${min} to ${max}.`);
  return n;
}

function parseOptions(args: string[]): Options {
  const { values } = parseScriptArgs(
    'npm run bench --',
    {
      usage: USAGE,
      options: {
        only: { kind: 'value', placeholder: 'NAME', description: 'Run one benchmark.' },
        repeat: { kind: 'value', placeholder: 'N', description: 'Runs per benchmark (default 3).' },
        out: { kind: 'value', placeholder: 'FILE', description: 'Results file (default bench-results.json).' },
        articles: { kind: 'value', placeholder: 'N', description: 'Corpus size (default 1000; the http benchmark uses at most 500).' },
        languages: { kind: 'value', placeholder: 'L', description: 'Languages per article (default 2).' },
        channels: { kind: 'value', placeholder: 'C', description: 'Channels of the build benchmark\'s corpus (default 20; 1 puts every article in one channel).' },
        duration: { kind: 'value', placeholder: 'S', description: 'Seconds of measured load per HTTP row (default 5).' },
        warmup: { kind: 'value', placeholder: 'S', description: 'Seconds of unmeasured load before each HTTP row (default 1; 0 for none).' },
        connections: { kind: 'value', placeholder: 'C', description: 'Concurrent connections of the HTTP load (default 32).' },
        'body-scale': { kind: 'value', placeholder: 'P', description: 'Size of the hostile bodies, in percent of issue 18 (default 100).' },
        loops: { kind: 'value', placeholder: 'N', description: 'Publish → read loops of the read-your-writes benchmark (default 200); the build and edge benchmarks take min(N, 50) publishes.' },
        'web-instances': { kind: 'value', placeholder: 'N', description: 'Web instances (PRESSROOM_ROLE=web) beside the server in the failover benchmark\'s spread writes (default 2).' },
        corpus: { kind: 'value', placeholder: 'DIR', description: 'Run the build benchmark on a copy of a kept corpus (written once by scripts/bench/corpus.ts --data DIR/data) instead of writing one.' },
        profile: { kind: 'value', placeholder: 'DIR', description: 'Write a CPU profile of each build benchmark phase (its main thread) to DIR (summarise: npm run profile:summary).' },
      },
      positionals: [],
    },
    args,
  );
  const only = values.only ?? null;
  if (only && !MEASUREMENTS.some((m) => m.name === only)) fail(`No benchmark is named "${only}". Choose one of: ${MEASUREMENTS.map((m) => m.name).join(', ')}.`);
  return {
    only,
    repeat: wholeNumber(values.repeat, 3, 1, 50, 'repeat'),
    out: values.out ?? 'bench-results.json',
    articles: wholeNumber(values.articles, 1000, 1, 100_000, 'articles'),
    languages: wholeNumber(values.languages, 2, 1, 8, 'languages'),
    channels: wholeNumber(values.channels, 20, 1, 1000, 'channels'),
    duration: wholeNumber(values.duration, 5, 1, 600, 'duration'),
    warmup: wholeNumber(values.warmup, 1, 0, 60, 'warmup'),
    connections: wholeNumber(values.connections, 32, 1, 1000, 'connections'),
    bodyScale: wholeNumber(values['body-scale'], 100, 1, 100, 'body-scale'),
    loops: wholeNumber(values.loops, 200, 1, 10_000, 'loops'),
    webInstances: wholeNumber(values['web-instances'], 2, 1, 16, 'web-instances'),
    profile: values.profile ? path.resolve(values.profile) : null,
    corpus: values.corpus ? path.resolve(values.corpus) : null,
  };
}

function fail(message: string): never {
  process.stderr.write(`${message}\nSee npm run bench -- --help.\n`);
  process.exit(2);
}

let stopping: Promise<never> | null = null;
/** Stops every benchmark process and removes the temp folders, once, then exits with `code` (the first caller's). */
function shutdown(code: number): Promise<never> {
  stopping ??= stopAll().then(() => process.exit(code));
  return stopping;
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping every benchmark process and removing temp folders…\n`);
    void shutdown(code);
  });
}

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}
const options = parseOptions(process.argv.slice(2));
const selected = MEASUREMENTS.filter((m) => !options.only || m.name === options.only);
const rows: BenchRow[] = [];
try {
  for (const m of selected) {
    // One script may report several figures; each becomes a row, keyed by its name, then the tree's row.
    const byName = new Map<string, BenchFigure[]>();
    const add = (figure: BenchFigure) => byName.set(figure.name, [...(byName.get(figure.name) ?? []), figure]);
    for (let i = 1; i <= options.repeat; i++) {
      process.stderr.write(`bench ${m.name}: run ${i}/${options.repeat}…\n`);
      const started = performance.now();
      const { figures, tree } = await runMeasurement(m.name, path.join(ROOT, m.script), m.args(options), ROOT);
      figures.forEach(add);
      add(tree);
      process.stderr.write(`bench ${m.name}: run ${i} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    for (const [name, runs] of byName) rows.push({ name, description: name === m.name ? m.description : '', runs });
  }
} catch (error) {
  // After Ctrl-C the interrupted run fails too; the signal's exit code wins.
  if (!stopping) process.stderr.write(`bench: ${describeError(error)}\n`);
  await shutdown(1);
}
await stopAll();

const cpus = os.cpus().length;
process.stdout.write(
  `\n${markdownTable(rows)}\n\nMachine: ${cpus} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; corpus ${options.articles} articles × ${options.languages} languages\n`,
);
const { only: _only, out: _out, ...settings } = options;
writeResults(options.out, { articles: options.articles, languages: options.languages }, settings, rows);
process.stderr.write(`Results written to ${options.out}\n`);
