/**
 * `npm run compile:astro`: compiles the Astro site (src/, astro.config.mjs)
 * into .pressroom/astro, where the HTML renderer loads it. Skips the work
 * when nothing the build depends on changed.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../server/paths.ts';
import { ensureSiteBuild } from '../server/render/astro-compile.ts';
import { parseScriptArgs, wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';

const HELP = `Usage: npm run compile:astro [-- --force]

Compiles the Astro site that renders public pages (src/, astro.config.mjs)
into .pressroom/astro. The write service loads that build and renders every
published page from it; it does not serve the site through Astro.

The build is skipped when a hash of src/, public/, astro.config.mjs and the
installed astro version matches the last build (stored in
.pressroom/astro/pressroom-build.json).

Options:
  --force     Build even when nothing changed.
  -h, --help  Show this help.
`;

const args = process.argv.slice(2);
if (wantsHelp(args)) {
  process.stdout.write(HELP);
} else {
  const { flags } = parseScriptArgs('npm run compile:astro --', { usage: '[--force]', options: { force: { kind: 'toggle', description: 'Build even when nothing changed.' } }, positionals: [] }, args);
  try {
    // The project that holds src/ and astro.config.mjs, wherever this is run from.
    const root = PROJECT_ROOT;
    const result = await ensureSiteBuild(root, { force: flags['force'] === true, log: (line) => process.stdout.write(`${line}\n`) });
    if (result.built) process.stdout.write(`Site build: ${path.relative(root, result.buildDir)}\n`);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    process.exitCode = 1;
  }
}
