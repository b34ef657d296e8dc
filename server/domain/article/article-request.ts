/**
 * Turns the status fields of a write (status, scheduled_at, publish_translations,
 * per-translation status) into lifecycle events per language. Pure.
 * Publishing rules 1–4 of the spec are enforced here.
 * @module
 */
import { validationError, PressroomError } from '../errors.ts';
import type { LifecycleEvent } from './article-lifecycle.ts';
import { mayPublishSecondary } from './article-lifecycle.ts';
import type { TranslationStatus } from './article-status.ts';

/** What the publisher asked the article as a whole to become. */
export type StatusRequest =
  | { kind: 'none' }
  | { kind: 'draft' }
  | { kind: 'archive' }
  | { kind: 'publish' }
  | { kind: 'schedule'; at: string };

/**
 * Reads `status` + `scheduled_at` into a request.
 * @param now ISO time; a schedule must be later.
 * @param schedulingAllowed whether the channel owner's plan includes scheduling.
 * @throws PressroomError 422 for inconsistent fields, 403 PLAN_NO_SCHEDULING.
 */
export function resolveStatusRequest(
  status: 'draft' | 'published' | 'scheduled' | 'archived' | undefined,
  scheduledAt: string | null | undefined,
  now: string,
  schedulingAllowed: boolean,
): StatusRequest {
  const at = scheduledAt ?? null;
  if (status === undefined) {
    if (at !== null) throw validationError({ scheduled_at: 'scheduled_at needs status "scheduled" (or "published"). Send the status too.' });
    return { kind: 'none' };
  }
  if (status === 'draft' || status === 'archived') {
    if (at !== null) throw validationError({ scheduled_at: `scheduled_at cannot go with status "${status}". Remove it, or send status "scheduled".` });
    return { kind: status === 'draft' ? 'draft' : 'archive' };
  }
  if (status === 'scheduled' && at === null) {
    throw validationError({ scheduled_at: 'Required with status "scheduled": send the publication time as an ISO 8601 date-time with a time zone.' });
  }
  if (at === null) return { kind: 'publish' };
  if (at <= now) {
    throw validationError({ scheduled_at: `The time ${at} is not in the future (now is ${now}). Send a later time, or status "published" without scheduled_at to publish now.` });
  }
  if (!schedulingAllowed) throw new PressroomError('PLAN_NO_SCHEDULING');
  return { kind: 'schedule', at };
}

/** The event a request means for one translation, or none. */
export function eventFor(request: StatusRequest): LifecycleEvent | null {
  switch (request.kind) {
    case 'none':
      return null;
    case 'draft':
      return { type: 'save_draft' };
    case 'archive':
      return { type: 'archive' };
    case 'publish':
      return { type: 'publish' };
    case 'schedule':
      return { type: 'schedule', at: request.at };
  }
}

/**
 * Checks publishing rule 1: a secondary translation is published or scheduled
 * only together with or after the primary language.
 * @param field the field to name in the 422.
 */
export function assertSecondaryMayPublish(primaryStatusAfter: TranslationStatus, language: string, primaryLanguage: string, field: string): void {
  if (mayPublishSecondary(primaryStatusAfter)) return;
  throw validationError({
    [field]: `The "${language}" translation cannot be published before the primary language "${primaryLanguage}" (status: ${primaryStatusAfter}). Publish it together with the primary language (status "published" with publish_translations=true), or publish the primary language first; until then save it as a draft.`,
  });
}
