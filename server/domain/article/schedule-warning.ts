/**
 * The write warning for scheduling published content: the spec's state table
 * sends every status change to `scheduled` through moderation, so a published
 * translation that is scheduled leaves public view until its time. That is
 * rarely what a publisher means, so the write says so and how to keep it
 * public instead.
 * @module
 */
import type { TranslationRow } from '../../store/article.table.ts';
import type { WriteWarning } from './article-view.ts';

/** Permanent code of the warning (docs/openapi/publishing-api.yaml, `WarningCode`). */
export const WITHDRAWN_UNTIL_SCHEDULED = 'ARTICLE_WITHDRAWN_UNTIL_SCHEDULED';

const quoted = (languages: readonly string[]) => languages.map((l) => `"${l}"`).join(', ');

/**
 * The warning for one write, or null when nothing public was scheduled.
 * @param before the article's translations before the write.
 * @param after the translations the write changed, as they are now.
 * @param drafted secondary languages saved as drafts because the primary left public view.
 */
export function withdrawnUntilScheduledWarning(
  before: readonly TranslationRow[],
  after: ReadonlyArray<{ row: TranslationRow }>,
  drafted: readonly string[],
): WriteWarning | null {
  const wasPublic = new Set(before.filter((t) => t.published_revision_id !== null).map((t) => t.language));
  const scheduled = after
    .map((a) => a.row)
    .filter((t) => wasPublic.has(t.language) && t.published_revision_id === null && t.scheduled_at !== null && (t.status === 'moderation_review' || t.status === 'scheduled'));
  if (scheduled.length === 0) return null;
  const languages = scheduled.map((t) => t.language);
  const at = [...new Set(scheduled.map((t) => t.scheduled_at))].join(', ');
  const one = languages.length === 1;
  let message =
    `${quoted(languages)} ${one ? 'was' : 'were'} published and ${one ? 'is' : 'are'} no longer public: scheduling takes published content out of every output, ` +
    `moderates its latest content again and publishes it at ${at}. To keep an article public, do not schedule it: send changes with PUT …/translations/{language} ` +
    '(or POST …/pages without status) and the published version stays public while the new one is moderated; a published article has no publication date to move.';
  const secondaries = drafted.filter((l) => wasPublic.has(l) || before.some((t) => t.language === l && t.status === 'scheduled'));
  if (secondaries.length > 0) {
    message += ` ${quoted(secondaries)} ${secondaries.length === 1 ? 'is a draft' : 'are drafts'} now (a translation is public only while the primary one is): send publish_translations: true to schedule every translation together.`;
  }
  return { code: WITHDRAWN_UNTIL_SCHEDULED, message, field: 'scheduled_at' };
}
