/**
 * The media cleanup job: deletes draft images older than the configured age
 * (their articles own copies), channel avatars and covers that were replaced
 * long enough ago, and stray files in draft folders (an upload whose row never
 * committed, a temporary left by a crash). Runs hourly and re-enqueues itself.
 *
 * A row is deleted before its file: a crash in between leaves a stray file,
 * which the next run sweeps, never a row whose URL 404s.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db } from '../../store/database.ts';
import { listAllChannels } from '../../store/channel.repository.ts';
import { hasActiveJob, insertJob } from '../../store/job.repository.ts';
import {
  deleteMedia,
  findMediaByFileName,
  isTextReferenced,
  listDraftsBefore,
  listReplacedChannelImagesBefore,
} from '../../store/media.repository.ts';
import type { MediaRow } from '../../store/media.table.ts';
import type { MediaStorage } from './storage-port.ts';
import { DRAFTS_FOLDER } from './media-paths.ts';

/** Job kind of the cleanup. */
export const MEDIA_CLEANUP_JOB = 'media_cleanup';

/** Time between two runs. */
export const MEDIA_CLEANUP_INTERVAL_MS = 3_600_000;

/** What the cleanup needs. */
export interface MediaCleanupDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly storage: MediaStorage;
  /** Drafts and replaced channel images older than this are deleted. */
  readonly maxAgeMs: number;
}

/** What one run deleted. */
export interface MediaCleanupReport {
  drafts: number;
  channelImages: number;
  strayFiles: number;
}

async function deleteRowThenFile(deps: MediaCleanupDeps, row: MediaRow): Promise<boolean> {
  if (!(await deleteMedia(deps.db, row.id))) return false;
  await deps.storage.remove(row.file_name);
  if (row.feed_file_name) await deps.storage.remove(row.feed_file_name);
  return true;
}

/** Runs the cleanup once. Safe to run at any time and more than once. */
export async function cleanupMedia(deps: MediaCleanupDeps): Promise<MediaCleanupReport> {
  const cutoffMs = deps.clock.now().getTime() - deps.maxAgeMs;
  const before = new Date(cutoffMs).toISOString();
  const report: MediaCleanupReport = { drafts: 0, channelImages: 0, strayFiles: 0 };
  for (const draft of await listDraftsBefore(deps.db, before)) {
    // A body that still names the draft (written without the attach hook) keeps it alive.
    if (await isTextReferenced(deps.db, `/media/${draft.file_name}`)) continue;
    if (await deleteRowThenFile(deps, draft)) report.drafts++;
  }
  for (const image of await listReplacedChannelImagesBefore(deps.db, before)) {
    if (await deleteRowThenFile(deps, image)) report.channelImages++;
  }
  for (const channel of await listAllChannels(deps.db)) {
    const folder = `${channel.slug}/${DRAFTS_FOLDER}`;
    report.strayFiles += await deps.storage.sweep(folder, cutoffMs, async (name) => (await findMediaByFileName(deps.db, `${folder}/${name}`)) !== undefined);
  }
  return report;
}

/**
 * Queues the next cleanup run unless one is already waiting or running.
 * @param options.delayMs from now; 0 at service start, so a restart after downtime cleans up at once.
 * @param options.exceptJobId the running job that re-enqueues itself.
 * @returns whether a job was queued.
 */
export async function scheduleMediaCleanup(db: Db, clock: Clock, options: { delayMs?: number; exceptJobId?: number } = {}): Promise<boolean> {
  if (await hasActiveJob(db, MEDIA_CLEANUP_JOB, options.exceptJobId)) return false;
  const now = isoNow(clock);
  const runAt = new Date(clock.now().getTime() + (options.delayMs ?? 0)).toISOString();
  await insertJob(db, { kind: MEDIA_CLEANUP_JOB, payload: {}, runAt, now });
  return true;
}
