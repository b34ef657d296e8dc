/**
 * `edge_deliveries`: the outbox of the edge (migration 0016). A build with
 * an edge configured writes one row in the transaction that marks its
 * events built; the edge delivery (`server/edge/edge-delivery.ts`) purges
 * what the rows name, then, in one transaction, records what readers now
 * get (`built_translations`), marks the events processed and deletes the
 * rows. A crash or an outage leaves the rows: a purge is delayed, never lost.
 * @module
 */
import type { Executor } from './database.ts';
import { recordBuiltTranslations } from './built-translation.repository.ts';
import { hasJobUnderWay } from './job.repository.ts';
import { hasUnbuiltEvent } from './publication-event.repository.ts';
import { markEventsProcessed } from './publication-event.repository.ts';

/** A build's news for the edge. */
export interface EdgeDelivery {
  readonly id: number;
  readonly through: number;
  readonly paths: readonly string[];
  readonly shown: ReadonlyMap<number, Readonly<Record<string, string>>>;
  readonly everything: boolean;
  readonly createdAt: string;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
}

/** Records a build's news for the edge; call in the transaction that marks its events built. */
export async function insertEdgeDelivery(
  db: Executor,
  delivery: { through: number; paths: readonly string[]; shown: ReadonlyMap<number, Readonly<Record<string, string>>>; everything: boolean; now: string },
): Promise<void> {
  await db
    .insertInto('edge_deliveries')
    .values({
      through: delivery.through,
      paths: JSON.stringify(delivery.paths),
      shown: JSON.stringify(Object.fromEntries(delivery.shown)),
      everything: delivery.everything ? 1 : 0,
      created_at: delivery.now,
      next_attempt_at: null,
      last_error: null,
    })
    .execute();
}

/** The oldest pending deliveries, in the order their builds ran. */
export async function listEdgeDeliveries(db: Executor, limit: number): Promise<EdgeDelivery[]> {
  const rows = await db.selectFrom('edge_deliveries').selectAll().orderBy('id').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    through: r.through,
    paths: JSON.parse(r.paths) as string[],
    shown: new Map(Object.entries(JSON.parse(r.shown) as Record<string, Record<string, string>>).map(([id, langs]) => [Number(id), langs] as const)),
    everything: r.everything === 1,
    createdAt: r.created_at,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
  }));
}

/**
 * The edge acknowledged `deliveries` (oldest first): what their builds show
 * is what readers get. Call in one transaction.
 */
export async function completeEdgeDeliveries(db: Executor, deliveries: readonly EdgeDelivery[], now: string): Promise<void> {
  // Another process (npm run build beside the server) may have completed some meanwhile, and newer ones after
  // them: only those still pending are applied, so what readers get never goes back to an older build's view.
  const pending = new Set<number>();
  const all = deliveries.map((d) => d.id);
  for (let i = 0; i < all.length; i += 500) {
    for (const row of await db.selectFrom('edge_deliveries').select('id').where('id', 'in', all.slice(i, i + 500)).execute()) pending.add(row.id);
  }
  const still = deliveries.filter((d) => pending.has(d.id));
  if (still.length === 0) return;
  for (const d of still) await recordBuiltTranslations(db, d.shown, { everything: d.everything });
  await markEventsProcessed(db, Math.max(...still.map((d) => d.through)), now);
  const ids = still.map((d) => d.id);
  for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('edge_deliveries').where('id', 'in', ids.slice(i, i + 500)).execute();
}

/** A failed attempt at `deliveries`: counted, with what went wrong, and not retried before `nextAttemptAt`. */
export async function recordEdgeFailure(db: Executor, ids: readonly number[], error: string, nextAttemptAt: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('edge_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error, next_attempt_at: nextAttemptAt }))
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** How the edge is doing: pending deliveries, the oldest one's age, and the last failure. */
export interface EdgeBacklog {
  readonly pending: number;
  readonly oldestCreatedAt: string | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly nextAttemptAt: string | null;
}

/** The backlog of the edge (cheap: the pending rows only). */
export async function readEdgeBacklog(db: Executor): Promise<EdgeBacklog> {
  const count = await db.selectFrom('edge_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const oldest = await db.selectFrom('edge_deliveries').select(['created_at', 'attempts', 'last_error', 'next_attempt_at']).orderBy('id').limit(1).executeTakeFirst();
  return {
    pending: Number(count?.n ?? 0),
    oldestCreatedAt: oldest?.created_at ?? null,
    attempts: oldest?.attempts ?? 0,
    lastError: oldest?.last_error ?? null,
    nextAttemptAt: oldest?.next_attempt_at ?? null,
  };
}

/**
 * Whether changes are on their way to the edge's outbox: publication events
 * not built yet, or a job of one of `jobKinds` (those that change what is
 * public) running or due at `now`. The edge's gathering round waits on it.
 */
export async function changesOnTheirWay(db: Executor, jobKinds: readonly string[], now: string): Promise<boolean> {
  return (await hasUnbuiltEvent(db)) || hasJobUnderWay(db, jobKinds, now);
}
