/**
 * Texts that go public the moment they are written — channel titles and
 * descriptions, an article's byline — have no revision to hold them while
 * moderation runs, so they are judged in the request and refused there.
 * @module
 */
import { PressroomError } from '../errors.ts';
import type { ModerationField, ModerationPolicy } from './moderation-policy.ts';

/**
 * Refuses texts the policy would not publish as they are: a blocked term or
 * link domain, and also a review term or a link flood, since nothing can wait
 * for a person here. A flagged account is not refused (its articles wait for
 * review; renaming its channel does not). Does nothing when every field passes.
 * @throws PressroomError CONTENT_REFUSED (422) naming the field in `details.fields`.
 */
export function assertPublicFieldsAllowed(policy: ModerationPolicy, fields: readonly ModerationField[]): void {
  const decision = policy.evaluateFields(fields);
  if (decision.outcome === 'pass') return;
  const field = decision.field ?? fields.find((f) => f.value)?.name ?? 'body';
  const why =
    decision.outcome === 'block'
      ? 'It contains a term or a link domain the site does not publish'
      : 'It contains a term or as many links as need a person to review, and this field goes public without review';
  throw new PressroomError('CONTENT_REFUSED', `The field "${field}" is refused by the site's moderation rules (${decision.reason}). Change it and send the request again.`, {
    fields: { [field]: `${why} (${decision.reason}). Rephrase it or remove the link.` },
  });
}
