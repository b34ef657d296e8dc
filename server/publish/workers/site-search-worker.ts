/**
 * Entry point of the search keeper's thread (`site-search-thread.ts`):
 * opens the store, builds the public model and the keeper
 * (`createSiteSearch`) from `workerData`, runs each request on it and
 * reports when the keeper is idle after it, every rebuild's change, and its
 * log lines.
 *
 * The thread runs below the request thread's priority (Linux keeps a nice
 * value per thread): on a machine whose cores are all busy, the scheduler
 * then gives a reader's request the core before a shard's records.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../../describe-error.ts';
import { forwardingLogger } from '../../thread-log.ts';
import { createBodyCache } from '../../read-model/body-cache.ts';
import { createPublicModel } from '../../read-model/public-model.ts';
import { openDatabase } from '../../store/database.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { createSearchIndexer } from '../search-index.ts';
import { lowerThisThread } from '../../thread-priority.ts';
import { createSiteSearch } from '../site-search.ts';
import type { SiteSearchReport, SiteSearchRequest, SiteSearchWorkerData } from '../site-search-thread.ts';


const data = workerData as SiteSearchWorkerData;
const port = parentPort!;
const report = (message: SiteSearchReport) => port.postMessage(message);

try {
  lowerThisThread();
  const log = forwardingLogger((line) => report({ log: line }));
  const db = openDatabase(data.database, { thread: true });
  // Texts come from the stored renderings; no cache (it would hold every body the index reads).
  const model = createPublicModel({ db, urls: createPublicUrls(data.publicUrl, data.dashboardUrl), cache: createBodyCache(0) });
  const search = createSiteSearch(createSearchIndexer({ outputDir: data.outputDir, log, lanes: data.lanes }), model, data.outputDir, log, data);
  search.onIndexed((change) => report({ indexed: change }));
  port.on('message', (request: SiteSearchRequest) => {
    if (request.op === 'close') {
      void search
        .close()
        .catch((error: unknown) => log.error('stopping the search keeper failed', { error: describeError(error) }))
        .then(() => db.destroy())
        .finally(() => report({ closed: true }));
      return;
    }
    if (request.op === 'all') search.rebuildAll();
    else search.rebuildFor({ changedPaths: [...request.changedPaths], articleIds: [...request.articleIds] });
    void search.idle().then(() => report({ settled: request.seq, failed: search.failed() }));
  });
  report({ ready: true });
} catch (error) {
  report({ bootError: describeError(error, { stack: true }) });
}
