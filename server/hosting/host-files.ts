/**
 * The host files a build keeps in the output folder (`PRESSROOM_STATIC_HOST`):
 * Netlify's `_headers` and `_redirects` (listed per article, so written again
 * after each build that adds or removes an article's Markdown or a feed) and
 * Cloudflare's `_worker.js` (the same for every site, so written when it
 * differs). Builds never delete them (`UNMANAGED_OUTPUT_FILES`); each is
 * written to a temporary name and renamed, so a host never reads half a file.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../describe-error.ts';
import type { Logger } from '../logger.ts';
import { writeAtomically } from '../output/output-writer.ts';
import { renderCloudflareWorker } from './cloudflare-config.ts';
import { DEFAULT_TAG_PREFIX } from '../serving/cache-tags.ts';
import { listSite, renderNetlifyHeaders, renderNetlifyRedirects } from './netlify-config.ts';

/** What keeps one host's files. */
export interface HostFiles {
  /** Writes the files that differ from what they should be. */
  ensure(): Promise<void>;
  /** After a build: writes them again when what it changed can change them. */
  afterBuild(changedPaths: readonly string[]): Promise<void>;
}

/** Paths whose addition or removal changes Netlify's per-article rules. */
const NETLIFY_INPUT = /\.md$|(^|\/)(rss\.xml|feed\.json)$/;

/** The files of `host` in `outputDir`; `none` keeps nothing. */
export function createHostFiles(host: 'none' | 'netlify' | 'cloudflare', outputDir: string, tagPrefix: string = DEFAULT_TAG_PREFIX): HostFiles {
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(outputDir, name);
      if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
      writeAtomically(outputDir, name, Buffer.from(text, 'utf8'));
    }
  };
  const render = async (): Promise<Record<string, string>> => {
    if (host === 'netlify') {
      const site = listSite(outputDir);
      return { _headers: renderNetlifyHeaders(site, tagPrefix), _redirects: renderNetlifyRedirects(site) };
    }
    if (host === 'cloudflare') return { '_worker.js': await renderCloudflareWorker({ tagPrefix }) };
    return {};
  };
  return {
    async ensure() {
      write(await render());
    },
    async afterBuild(changedPaths) {
      if (host === 'netlify' && changedPaths.some((p) => NETLIFY_INPUT.test(p))) write(await render());
      if (host === 'cloudflare' && !fs.existsSync(path.join(outputDir, '_worker.js'))) write(await render());
    },
  };
}

/**
 * Keeps `host`'s files beside a builder's output: written again after each
 * build that can change them. Called by the composition roots (`main.ts`,
 * `scripts/build.ts`) before the first build, so the builder itself knows
 * no host. The caller runs `ensure()` once the first build is done.
 */
export function keepHostFiles(
  builder: { onFilesPlaced(listener: (paths: readonly string[]) => void): void },
  host: 'none' | 'netlify' | 'cloudflare',
  outputDir: string,
  log: Logger,
  tagPrefix: string = DEFAULT_TAG_PREFIX,
): HostFiles {
  const files = createHostFiles(host, outputDir, tagPrefix);
  builder.onFilesPlaced((paths) => {
    files.afterBuild(paths).catch((error: unknown) => log.error('host files not written', { host, error: describeError(error) }));
  });
  return files;
}
