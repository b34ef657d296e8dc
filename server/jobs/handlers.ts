/**
 * The job handlers of the write service, by job kind. Thin: validate the
 * payload, call the domain.
 * @module
 */
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { MODERATION_JOB, SCHEDULE_JOB } from '../domain/article/article-events.ts';
import { moderateRevision } from '../domain/article/moderation.service.ts';
import { publishIfDue } from '../domain/article/schedule.service.ts';
import type { ModerationPolicy } from '../domain/moderation/moderation-policy.ts';
import type { Logger } from '../logger.ts';
import { cleanupMedia, MEDIA_CLEANUP_INTERVAL_MS, MEDIA_CLEANUP_JOB, scheduleMediaCleanup } from '../domain/media/cleanup.ts';
import type { MediaKit } from '../domain/media/media-kit.ts';
import type { Db } from '../store/database.ts';
import { BUILD_JOB } from '../store/job.repository.ts';
import type { JobHandler } from './worker.ts';

const revisionPayload = z.object({ revisionId: z.number().int().positive() });
const articlePayload = z.object({ articleId: z.number().int().positive() });

/** Creates the handlers for every job kind the service queues. */
export function createJobHandlers(deps: {
  db: Db;
  clock: Clock;
  policy: ModerationPolicy;
  log: Logger;
  media?: MediaKit;
  /**
   * Called after a job that may have changed what is public (moderation, a
   * schedule): the service asks for a build at once instead of at the build
   * queue's next poll, which shortens "being published" (docs/LIFECYCLE.md).
   */
  afterPublicChange?: () => void;
  /**
   * Builds the outbox's unbuilt events and resolves when done: the build job
   * a change queues on Postgres (`queueBuild`). Without it, build jobs are
   * not taken (`npm run worker` leaves them to the server).
   */
  build?: () => Promise<void>;
}): Record<string, JobHandler> {
  const media = deps.media;
  return {
    ...(media && {
      [MEDIA_CLEANUP_JOB]: async (_payload: unknown, job: { id: number }) => {
        const report = await cleanupMedia({ db: deps.db, clock: deps.clock, storage: media.storage, maxAgeMs: media.limits.draftMaxAgeMs });
        deps.log.info('media cleanup', { ...report });
        await scheduleMediaCleanup(deps.db, deps.clock, { delayMs: MEDIA_CLEANUP_INTERVAL_MS, exceptJobId: job.id });
      },
    }),
    [MODERATION_JOB]: async (payload) => {
      const { revisionId } = revisionPayload.parse(payload);
      const outcome = await moderateRevision(deps, revisionId);
      deps.log.info('moderation', { revision: revisionId, outcome });
      deps.afterPublicChange?.();
    },
    ...(deps.build && { [BUILD_JOB]: deps.build }),
    [SCHEDULE_JOB]: async (payload) => {
      const { articleId } = articlePayload.parse(payload);
      const outcome = await publishIfDue(deps, articleId);
      deps.log.info('schedule', { article: articleId, outcome });
      deps.afterPublicChange?.();
    },
  };
}
