/**
 * Admin commands of the publishing lifecycle: manual moderation, the job
 * queue, homepage exclusions and the review flag of accounts.
 * @module
 */
import { isoNow } from '../clock.ts';
import { decideManualReview, listManualReviews } from '../domain/article/moderation.service.ts';
import { setHomepageExclusion } from '../domain/channel/homepage-exclusion.ts';
import { PressroomError } from '../domain/errors.ts';
import { updateAccount } from '../store/account.repository.ts';
import { listJobs } from '../store/job.repository.ts';
import type { JobRow } from '../store/job.table.ts';
import { countJobsByState, requeueJob } from '../store/job-queue.repository.ts';
import { UsageError } from './args.ts';
import { output, requireAccount, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { formatTable, formatTime } from './table.ts';

/** Translations waiting for a person. */
export async function listModeration(deps: AdminDeps): Promise<CommandOutput> {
  const items = await listManualReviews(deps.db);
  if (items.length === 0) return output(['Nothing waits for manual review.']);
  return output([
    formatTable(
      ['CHANNEL', 'ARTICLE', 'LANGUAGE', 'TITLE', 'REASON', 'SUBMITTED (UTC)'],
      items.map((i) => [i.channel, i.article, i.language, i.title, i.reason ?? '', formatTime(i.submittedAt)]),
    ),
  ]);
}

/** Approves or blocks a translation waiting for manual review. */
export async function decideModeration(
  deps: AdminDeps,
  input: { channel: string; article: string; language: string; outcome: 'pass' | 'block'; note?: string },
): Promise<CommandOutput> {
  const result = await decideManualReview(deps, input, input.outcome, input.note);
  const what = `${input.channel}/${input.article} (${input.language})`;
  return output([result === 'passed' ? `Approved ${what}.` : result === 'blocked' ? `Blocked ${what}.` : `Nothing changed for ${what}.`]);
}

const JOB_STATES: ReadonlyArray<JobRow['state']> = ['pending', 'running', 'done', 'parked'];

/** The newest jobs, with attempts and the last error (parked jobs keep theirs). */
export async function listJobsCommand(deps: AdminDeps, input: { state?: string; limit?: string }): Promise<CommandOutput> {
  if (input.state !== undefined && !JOB_STATES.includes(input.state as JobRow['state'])) {
    throw new UsageError(`State "${input.state}" does not exist. Choose one of: ${JOB_STATES.join(', ')}.`);
  }
  const limit = input.limit === undefined ? 50 : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit takes a whole number from 1 to 10000.');
  const counts = await countJobsByState(deps.db);
  const jobs = await listJobs(deps.db, input.state as JobRow['state'] | undefined, limit);
  const summary = `Jobs: ${JOB_STATES.map((s) => `${counts[s]} ${s}`).join(', ')}.`;
  if (jobs.length === 0) return output([summary]);
  const firstLine = (text: string | null) => (text ?? '').split('\n')[0]!.slice(0, 100);
  return output([
    summary,
    formatTable(
      ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'RUN AT (UTC)', 'PAYLOAD', 'LAST ERROR'],
      jobs.map((j) => [String(j.id), j.kind, j.state, `${j.attempts}/${j.max_attempts}`, formatTime(j.run_at), j.payload, firstLine(j.last_error)]),
    ),
  ]);
}

/** Puts a parked job back in the queue, to run at the next start or within a second on a running server. */
export async function retryJobCommand(deps: AdminDeps, id: string): Promise<CommandOutput> {
  if (!/^\d+$/.test(id)) throw new UsageError(`Job id "${id}" is not a number. See the ids with "admin jobs list --state parked".`);
  const changed = await requeueJob(deps.db, Number(id), isoNow(deps.clock));
  if (changed === 0) throw new PressroomError('NOT_FOUND', `No parked job has the id ${id}. Only parked jobs can be retried; see "admin jobs list --state parked".`);
  return output([`Job ${id} is queued again.`]);
}

/** Excludes a channel or an article from the homepage, or includes it again. */
export async function homepageCommand(
  deps: AdminDeps,
  input: { channel: string; article?: string; excluded: boolean },
): Promise<CommandOutput> {
  const { changed } = await deps.db.transaction().execute((trx) => setHomepageExclusion(trx, deps.clock, input, input.excluded));
  const what = input.article ? `Article ${input.channel}/${input.article}` : `Channel ${input.channel}`;
  const state = input.excluded ? 'excluded from' : 'allowed on';
  return output([changed ? `${what} is now ${state} the homepage.` : `${what} was already ${state} the homepage.`]);
}

/** Flags an account so that every publication waits for a person, or clears the flag. */
export async function reviewCommand(deps: AdminDeps, input: { account: string; on: boolean }): Promise<CommandOutput> {
  const account = await requireAccount(deps.db, input.account);
  await updateAccount(deps.db, account.id, { review_required: input.on ? 1 : 0 });
  return output([
    input.on
      ? `Every new publication of "${account.name}" now waits for manual review ("admin moderation list").`
      : `Publications of "${account.name}" are moderated automatically again.`,
  ]);
}
