/**
 * The outbox of publication events. Written inside the transaction of the
 * change; read and marked processed by the static builder. On Postgres each
 * event also asks for a build through the job queue (`queueBuild`), so any
 * process's change reaches the builder the moment it commits.
 * @module
 */
import { storeKind, type Executor } from './database.ts';
import { queueBuild } from './postgres/postgres-jobs.ts';
import type { PublicationEventRow } from './publication-event.table.ts';

/** Kinds of publication event. */
export type PublicationEventKind =
  /** A translation became public, changed its public version, or stopped being public. */
  | 'article_public_changed'
  /** An article's homepage visibility changed while public. */
  | 'article_homepage_changed'
  /** A channel's public fields, status or homepage setting changed. */
  | 'channel_changed';

/** A decoded event. */
export interface PublicationEvent {
  id: number;
  kind: PublicationEventKind;
  channelId: number;
  articleId: number | null;
  languages: string[];
  createdAt: string;
}

/** Writes one event; call inside the transaction that made the change. */
export async function insertPublicationEvent(
  db: Executor,
  event: { kind: PublicationEventKind; channelId: number; articleId: number | null; languages: readonly string[]; now: string },
): Promise<void> {
  await db
    .insertInto('publication_events')
    .values({
      kind: event.kind,
      channel_id: event.channelId,
      article_id: event.articleId,
      languages: JSON.stringify([...event.languages].sort()),
      created_at: event.now,
      built_at: null,
      processed_at: null,
    })
    .execute();
  if (storeKind(db) === 'postgres') await queueBuild(db);
}

function decode(row: PublicationEventRow): PublicationEvent {
  return {
    id: row.id,
    kind: row.kind as PublicationEventKind,
    channelId: row.channel_id,
    articleId: row.article_id,
    languages: JSON.parse(row.languages) as string[],
    createdAt: row.created_at,
  };
}

/** Id of the newest event (0 when none): a full build processes exactly the events before it started. */
export async function lastEventId(db: Executor): Promise<number> {
  const row = await db.selectFrom('publication_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Events the builder has not built yet, oldest first. */
export async function listUnbuiltEvents(db: Executor, limit = 1000): Promise<PublicationEvent[]> {
  const rows = await db.selectFrom('publication_events').selectAll().where('built_at', 'is', null).orderBy('id').limit(limit).execute();
  return rows.map(decode);
}

/** Whether any event is not built yet (a build has work). */
export async function hasUnbuiltEvent(db: Executor): Promise<boolean> {
  return (await db.selectFrom('publication_events').select('id').where('built_at', 'is', null).limit(1).executeTakeFirst()) !== undefined;
}

/** Marks events up to `lastId` built: their files are in the output (with an edge, not yet acknowledged there). */
export async function markEventsBuilt(db: Executor, lastId: number, now: string): Promise<void> {
  await db.updateTable('publication_events').set({ built_at: now }).where('built_at', 'is', null).where('id', '<=', lastId).execute();
}

/** Every event, oldest first (for tests and diagnostics). */
export async function listEvents(db: Executor): Promise<PublicationEvent[]> {
  return (await db.selectFrom('publication_events').selectAll().orderBy('id').execute()).map(decode);
}

/** Marks events up to `lastId` processed: readers get them (built too, for a full build that processed what it never listed). */
export async function markEventsProcessed(db: Executor, lastId: number, now: string): Promise<void> {
  await db.updateTable('publication_events').set({ built_at: now }).where('built_at', 'is', null).where('id', '<=', lastId).execute();
  await db.updateTable('publication_events').set({ processed_at: now }).where('processed_at', 'is', null).where('id', '<=', lastId).execute();
}

/**
 * Of some articles, those readers do not get as the store has them yet: an
 * unprocessed event (not built, or with an edge, built and not yet
 * acknowledged there) names the article or (a channel change) its channel. Read through
 * the index on `processed_at`, so it costs the pending events, not the outbox.
 */
export async function articlesAwaitingBuild(db: Executor, articles: ReadonlyArray<{ id: number; channel_id: number }>): Promise<Set<number>> {
  if (articles.length === 0) return new Set();
  const pending = await db.selectFrom('publication_events').select(['article_id', 'channel_id']).where('processed_at', 'is', null).execute();
  const ids = new Set(pending.filter((e) => e.article_id !== null).map((e) => e.article_id));
  const channels = new Set(pending.filter((e) => e.article_id === null).map((e) => e.channel_id));
  return new Set(articles.filter((a) => ids.has(a.id) || channels.has(a.channel_id)).map((a) => a.id));
}

/** Whether an event up to `id` is not processed yet (readers do not get it yet). */
export async function hasUnprocessedEventThrough(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('publication_events').select('id').where('processed_at', 'is', null).where('id', '<=', id).limit(1).executeTakeFirst()) !== undefined;
}
