/**
 * Watches content/ while the server runs: an editor's save is imported
 * within moments, through the same importer as at start. The importer skips
 * articles whose files did not change (source hash), so re-running it for
 * the whole folder costs little; imports never overlap, and a burst of saves
 * is coalesced into one import. What the import changes reaches the static
 * output through the usual publication events.
 * @module
 */
import { watch } from 'chokidar';
import { importContent, type ContentImportDeps } from './import-content.ts';
import type { ImportReport } from './import-report.ts';
import { describeError } from '../describe-error.ts';

/** A running watcher. */
export interface ContentWatcher {
  /** Resolves once the initial scan is done and changes are being seen. */
  ready(): Promise<void>;
  /** Resolves when no import is running or waiting. */
  idle(): Promise<void>;
  /**
   * Imports the whole folder now, after any import running, and resolves with its report; its failure is the
   * caller's. The start's import runs here once the watcher is ready, so no save falls between the two.
   */
  importNow(): Promise<ImportReport>;
  close(): Promise<void>;
}

/**
 * Starts watching `dir` (created or not yet existing alike).
 * @param onImport called after every import, for logs and tests.
 */
export function watchContent(
  deps: ContentImportDeps,
  dir: string,
  accountId: number,
  options: { debounceMs?: number; onImport?: (report: ImportReport) => void } = {},
): ContentWatcher {
  const debounceMs = options.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  // True while a debounce timer waits to start an import.
  let waiting = false;

  const runImport = async () => {
    try {
      const report = await importContent(deps, dir, accountId);
      const { channels, articles, errors } = report.counts;
      if (channels + articles + errors > 0) deps.log.info('content changed', { dir, ...report.counts });
      options.onImport?.(report);
    } catch (error) {
      deps.log.error('content import failed', { error: describeError(error, { stack: true }) });
    }
  };
  const schedule = () => {
    waiting = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      waiting = false;
      running = running.then(runImport);
    }, debounceMs);
  };

  const watcher = watch(dir, {
    ignoreInitial: true,
    // Links are never imported (content-tree.ts); following one could watch a whole other tree.
    followSymlinks: false,
    // Editors save in several writes; wait until a file stops growing.
    awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 },
    ignored: (file) => /(^|[/\\])\.|~$|\.swp$/.test(file.slice(dir.length)),
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  watcher.on('all', schedule);
  watcher.on('error', (error) => deps.log.warn('content watcher error', { error: String(error) }));

  return {
    ready: () => ready,
    async idle() {
      while (waiting) await new Promise((r) => setTimeout(r, debounceMs));
      await running;
    },
    importNow() {
      const report = running.then(() => importContent(deps, dir, accountId));
      running = report.then(
        () => undefined,
        () => undefined,
      );
      return report;
    },
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
