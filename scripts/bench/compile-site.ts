/**
 * Compiles the Astro site when its sources changed since the last compile
 * (`ensureSiteBuild`), and does nothing otherwise. The build benchmark runs
 * it in a child process before measuring, so Vite's memory is not counted in
 * the cold build's peak RSS. Alone: `tsx scripts/bench/compile-site.ts`.
 */
import { PROJECT_ROOT } from '../../server/paths.ts';
import { ensureSiteBuild } from '../../server/render/astro-compile.ts';

if (process.argv.includes('--help')) {
  process.stdout.write('Usage: tsx scripts/bench/compile-site.ts\nCompiles the Astro site into .pressroom/ when src/ changed; otherwise does nothing.\n');
} else {
  await ensureSiteBuild(PROJECT_ROOT, { log: (line: string) => process.stderr.write(`${line}\n`) });
}
