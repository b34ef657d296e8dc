/**
 * Compiles the Astro site (`src/`, `astro.config.mjs`) into
 * `.pressroom/astro`, the input of `astro-renderer.ts`.
 *
 * The build is skipped when nothing it depends on changed: a hash of every
 * file under `src/` and `public/`, `astro.config.mjs` and the installed
 * versions of astro and @astrojs/node is stored in the build folder and
 * compared first. The
 * stamp is written last, so a folder with a stamp is a complete build.
 * Builds are serialised across processes with a lock folder (test files run
 * in parallel processes and may all ask for the build at once).
 * @module
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../describe-error.ts';
import { InternalError } from '../internal-error.ts';
import { processRuns } from '../process-runs.ts';

/** The build folder, relative to the project root (also `outDir` in astro.config.mjs). */
export const SITE_BUILD_DIR = '.pressroom/astro';

/** Name of the stamp file inside the build folder. */
export const BUILD_STAMP_FILE = 'pressroom-build.json';

// Bump when the way the build is made changes in a way the hash cannot see.
const STAMP_FORMAT = 1;

/** Contents of the stamp file. */
export interface BuildStamp {
  readonly format: number;
  readonly hash: string;
  readonly astroVersion: string;
}

/** Options of `ensureSiteBuild`. */
export interface SiteBuildOptions {
  /** Build even when the hash is unchanged. */
  readonly force?: boolean;
  /** Progress lines ("Compiling the site…", "done in 4.2 s"); silent by default. */
  readonly log?: (line: string) => void;
  /** How long to wait for another process's build, in ms (default 10 minutes). */
  readonly lockTimeoutMs?: number;
  /**
   * Replaces Astro's build (tests only): must fill `buildDir` with
   * `server/pages/*.mjs`. Defaults to `astro build` into `buildDir`.
   */
  readonly compile?: (projectRoot: string, buildDir: string) => Promise<void>;
}

/** Result of `ensureSiteBuild`. */
export interface SiteBuildResult {
  /** Absolute path of the build folder. */
  readonly buildDir: string;
  /** False when an up-to-date build was reused. */
  readonly built: boolean;
  readonly hash: string;
}

/** The absolute build folder of a project. */
export function siteBuildDir(projectRoot: string): string {
  return path.resolve(projectRoot, SITE_BUILD_DIR);
}

function packageVersion(projectRoot: string, name: string): string {
  try {
    const require = createRequire(path.join(projectRoot, 'package.json'));
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'missing';
  }
}

async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * The server modules `src/` imports at run time (not only their types): the
 * compiled site bundles them, so they are part of what the build depends on.
 * One decision per concept (the channel's languages and addresses, text
 * direction) rather than a copy in `src/`. `astro-compile.test.ts` keeps this
 * list complete.
 */
export const SITE_SERVER_MODULES: readonly string[] = ['server/read-model/selection.ts', 'server/read-model/identity-memo.ts', 'server/domain/language.ts'];

/**
 * The hash the build depends on: every file under `src/` and `public/` (path
 * and bytes), `astro.config.mjs`, the server modules the site bundles
 * (`SITE_SERVER_MODULES`), and the astro and @astrojs/node versions.
 */
export async function computeSiteHash(projectRoot: string): Promise<string> {
  const root = path.resolve(projectRoot);
  const hash = createHash('sha256');
  hash.update(`format ${STAMP_FORMAT}\n`);
  hash.update(`astro ${packageVersion(root, 'astro')}\n@astrojs/node ${packageVersion(root, '@astrojs/node')}\n`);
  const files = [
    ...(await listFiles(path.join(root, 'src'))),
    ...(await listFiles(path.join(root, 'public'))),
    path.join(root, 'astro.config.mjs'),
    ...SITE_SERVER_MODULES.map((m) => path.join(root, m)),
  ];
  const relative = files.map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
  for (const rel of relative) {
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(path.join(root, rel));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** The stamp of a complete build, or null when the folder holds none. */
export async function readBuildStamp(buildDir: string): Promise<BuildStamp | null> {
  try {
    const stamp = JSON.parse(await fs.readFile(path.join(buildDir, BUILD_STAMP_FILE), 'utf8')) as Partial<BuildStamp>;
    if (typeof stamp.hash !== 'string' || typeof stamp.format !== 'number') return null;
    return { format: stamp.format, hash: stamp.hash, astroVersion: String(stamp.astroVersion ?? '') };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` holding the lock folder `lockDir`. A lock whose owner process is
 * gone (or that never got an owner within 30 s) is taken over.
 */
async function withLock<T>(lockDir: string, timeoutMs: number, onWait: () => void, fn: () => Promise<T>): Promise<T> {
  const ownerFile = path.join(lockDir, 'owner');
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      await fs.mkdir(lockDir);
      await fs.writeFile(ownerFile, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await fs.readFile(ownerFile, 'utf8').catch(() => ''), 10);
    const age = Date.now() - (await fs.stat(lockDir).then((s) => s.mtimeMs).catch(() => Date.now()));
    if ((Number.isInteger(owner) && owner > 0 && !processRuns(owner)) || (!(owner > 0) && age > 30_000)) {
      await fs.rm(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new InternalError(
        'SITE_COMPILE_FAILED',
        `Timed out waiting for another site build to finish (lock ${lockDir} held by process ${owner || 'unknown'}). ` +
          'If no build is running, delete that folder and try again.',
      );
    }
    if (!announced) {
      onWait();
      announced = true;
    }
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockDir, { recursive: true, force: true });
  }
}

/**
 * Makes sure `.pressroom/astro` holds a build of the current site, compiling
 * it when the hash changed (or `force`). Safe to call from several processes.
 * @example const { buildDir, built } = await ensureSiteBuild(process.cwd(), { log: console.log });
 */
export async function ensureSiteBuild(projectRoot: string, options: SiteBuildOptions = {}): Promise<SiteBuildResult> {
  const root = path.resolve(projectRoot);
  const log = options.log ?? (() => {});
  const buildDir = siteBuildDir(root);
  const hash = await computeSiteHash(root);
  const upToDate = async () => {
    const stamp = await readBuildStamp(buildDir);
    return !options.force && stamp?.format === STAMP_FORMAT && stamp.hash === hash;
  };
  if (await upToDate()) {
    log(`The site is up to date (${path.relative(root, buildDir) || buildDir}).`);
    return { buildDir, built: false, hash };
  }
  await fs.mkdir(path.dirname(buildDir), { recursive: true });
  return withLock(
    `${buildDir}.lock`,
    options.lockTimeoutMs ?? 600_000,
    () => log('Waiting for another site build to finish…'),
    async () => {
      // Another process may have built it while this one waited.
      if (!options.force && (await upToDate())) {
        log('The site is up to date (built by another process).');
        return { buildDir, built: false, hash };
      }
      log('Compiling the site…');
      const started = performance.now();
      await fs.rm(buildDir, { recursive: true, force: true });
      try {
        await (options.compile ?? astroBuild)(root, buildDir);
      } catch (error) {
        const reason = describeError(error);
        throw new InternalError('SITE_COMPILE_FAILED', `Compiling the site (src/, astro.config.mjs) failed: ${reason}`, { cause: error });
      }
      await assertBuildOutput(buildDir);
      const stamp: BuildStamp = { format: STAMP_FORMAT, hash, astroVersion: packageVersion(root, 'astro') };
      await fs.writeFile(path.join(buildDir, BUILD_STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
      log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return { buildDir, built: true, hash };
    },
  );
}

/** Astro's own build of the site at `root` into `buildDir`. */
async function astroBuild(root: string, buildDir: string): Promise<void> {
  // Astro reads its telemetry switch from the environment when it records.
  process.env['ASTRO_TELEMETRY_DISABLED'] ??= '1';
  const { build } = await import('astro');
  await build({ root, outDir: buildDir, mode: 'production', logLevel: 'warn' }, { teardownCompiler: true });
}

async function assertBuildOutput(buildDir: string): Promise<void> {
  const pages = path.join(buildDir, 'server', 'pages');
  const found = await fs.readdir(pages).catch(() => null);
  if (!found || found.length === 0) {
    throw new InternalError(
      'SITE_COMPILE_FAILED',
      `Astro finished but ${pages} holds no compiled pages. Check that astro.config.mjs still has ` +
        `output: 'server', the node adapter and outDir: '${SITE_BUILD_DIR}'.`,
    );
  }
}
