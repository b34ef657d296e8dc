/**
 * The benchmarks' built site: the corpus written (or a kept one copied),
 * then built with its search index as `npm run build` builds it, and the
 * database handed to `then` (for a key or a password) before it is closed.
 * @module
 */
import { loadCursorCodec } from '../../server/bootstrap.ts';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createStaticSite } from '../../server/publish/static-site.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import type { CorpusShape } from './corpus.ts';
import { prepareCorpus } from './kept-corpus.ts';

/** Where the site goes and what it holds. */
export interface CorpusSiteOptions {
  readonly dir: string;
  readonly dataDir: string;
  readonly outputDir: string;
  /** A kept corpus to copy (`--corpus`), or null to write one. */
  readonly kept: string | null;
  readonly shape: Omit<CorpusShape, 'channels'> & { channels?: number };
  readonly progress: (message: string) => void;
}

/** Writes and builds the site; resolves with what `then` made of its database. */
export async function buildCorpusSite<T>(options: CorpusSiteOptions, then: (db: Db) => Promise<T>): Promise<T> {
  const { dir, dataDir, outputDir, kept, shape, progress } = options;
  prepareCorpus({ dir, kept, shape, progress });
  progress('full build and search index…');
  const config = loadConfig({ PRESSROOM_DATA_DIR: dataDir, PRESSROOM_OUTPUT_DIR: outputDir, PRESSROOM_PUBLIC_URL: 'http://bench.test', PRESSROOM_LOG_LEVEL: 'silent' }, dir);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const site = await createStaticSite({ db, clock: systemClock, urls: createPublicUrls(config.publicUrl, config.dashboardUrl), cursors: await loadCursorCodec(db), config, projectRoot: PROJECT_ROOT, log: createLogger('warn') });
    await site.builder.fullBuild();
    site.search.rebuildAll();
    await site.search.idle();
    await site.close();
    return await then(db);
  } finally {
    await db.destroy();
  }
}
