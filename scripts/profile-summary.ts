/**
 * `npm run profile:summary -- FILE.cpuprofile…`: where a V8 CPU profile's
 * time went, as the tables in docs/PERFORMANCE.md show it. Profiles come
 * from `node --cpu-prof --cpu-prof-dir DIR` (one file per thread, worker
 * threads included). Prints, per profile, the total sampled time, then the
 * functions with the most self time and the source files (our own, or a
 * package by name) with the most self time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';

const HELP = `Usage: npm run profile:summary -- [--top N] FILE.cpuprofile…

Summarises V8 CPU profiles (from node --cpu-prof --cpu-prof-dir DIR, one file
per thread): total sampled time, the N functions (default 15) with the most
self time, and the N source files or packages with the most self time.
`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** The parts of a `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script URL lives, shortened: a package's name, or the path inside the project. */
export function sourceOf(url: string): string {
  if (!url) return '(native)';
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  if (file.startsWith('node:')) return file;
  const at = file.indexOf('/server/') >= 0 ? file.indexOf('/server/') : file.indexOf('/src/');
  return at >= 0 ? file.slice(at + 1) : path.basename(file);
}

/** Self time in ms per function and per source file of one profile. */
export function summarise(profile: CpuProfile): { totalMs: number; byFunction: Map<string, number>; bySource: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const bySource = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const source = sourceOf(url);
    const fn = `${functionName || '(anonymous)'} ${source}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us / 1000);
    bySource.set(source, (bySource.get(source) ?? 0) + us / 1000);
    total += us / 1000;
  }
  return { totalMs: total, byFunction, bySource };
}

const top = (map: Map<string, number>, n: number, total: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `| ${name.replaceAll('|', '\\|')} | ${Math.round(ms)} | ${((ms / total) * 100).toFixed(1)} % |`)
    .join('\n');

if (import.meta.url === `file://${process.argv[1]}`) {
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const args = parseArgs({ args: process.argv.slice(2), options: { top: { type: 'string' } }, allowPositionals: true });
  const n = Number(args.values.top ?? 15);
  if (!Number.isInteger(n) || n < 1 || args.positionals.length === 0) {
    process.stderr.write(`${HELP}\nGive at least one .cpuprofile file; --top takes a whole number above 0.\n`);
    process.exit(2);
  }
  for (const file of args.positionals) {
    let profile: CpuProfile;
    try {
      profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
      if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples) || !Array.isArray(profile.timeDeltas)) throw new Error('it has no nodes, samples and timeDeltas');
    } catch (error) {
      process.stderr.write(`${file} is not a readable V8 CPU profile (${describeError(error)}). Make one with node --cpu-prof or npm run bench -- --profile DIR.\n`);
      process.exit(2);
    }
    const { totalMs, byFunction, bySource } = summarise(profile);
    process.stdout.write(`## ${path.basename(file)}: ${Math.round(totalMs)} ms sampled\n\n| Function (self) | ms | share |\n| --- | ---: | ---: |\n${top(byFunction, n, totalMs)}\n\n| Source (self) | ms | share |\n| --- | ---: | ---: |\n${top(bySource, n, totalMs)}\n\n`);
  }
}
