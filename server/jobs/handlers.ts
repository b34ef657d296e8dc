/**
 * The job handlers of the write service, by job kind. Thin: validate the
 * payload, call the domain.
 * @module
 */
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { MODERATION_JOB, SCHEDULE_JOB } from '../domain/article/article-write.ts';
import { moderateRevision } from '../domain/article/moderation.service.ts';
import { publishIfDue } from '../domain/article/schedule.service.ts';
import type { ModerationPolicy } from '../domain/moderation/moderation-policy.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/database.ts';
import type { JobHandler } from './worker.ts';

const revisionPayload = z.object({ revisionId: z.number().int().positive() });
const articlePayload = z.object({ articleId: z.number().int().positive() });

/** Creates the handlers for every job kind the service queues. */
export function createJobHandlers(deps: { db: Db; clock: Clock; policy: ModerationPolicy; log: Logger }): Record<string, JobHandler> {
  return {
    [MODERATION_JOB]: async (payload) => {
      const { revisionId } = revisionPayload.parse(payload);
      const outcome = await moderateRevision(deps, revisionId);
      deps.log.info('moderation', { revision: revisionId, outcome });
    },
    [SCHEDULE_JOB]: async (payload) => {
      const { articleId } = articlePayload.parse(payload);
      const outcome = await publishIfDue(deps, articleId);
      deps.log.info('schedule', { article: articleId, outcome });
    },
  };
}
