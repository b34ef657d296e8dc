/**
 * `list_anchors` (migration 0011): the positions public lists have shown
 * items at. Written only by the builder, read by the builder and, through
 * the public state, by the read API.
 * @module
 */
import type { Executor } from './database.ts';

/** A position in a list. */
export interface ListPosition {
  /** Sort date ('' where the list orders by id only). */
  readonly p: string;
  readonly id: number;
}

/** Every recorded anchor, by scope, in no particular order. */
export async function readListAnchors(db: Executor): Promise<Map<string, ListPosition[]>> {
  // In key order, as SQLite's WITHOUT ROWID table gives them; Postgres gives no order unless asked.
  const rows = await db.selectFrom('list_anchors').select(['scope', 'published_at', 'item_id']).orderBy('scope').orderBy('published_at').orderBy('item_id').execute();
  const out = new Map<string, ListPosition[]>();
  for (const r of rows) {
    let list = out.get(r.scope);
    if (!list) out.set(r.scope, (list = []));
    list.push({ p: r.published_at, id: r.item_id });
  }
  return out;
}

/** Records anchors; ones already there are left as they are. */
export async function addListAnchors(db: Executor, rows: ReadonlyArray<{ scope: string; position: ListPosition }>): Promise<void> {
  for (let i = 0; i < rows.length; i += 300) {
    await db
      .insertInto('list_anchors')
      .values(rows.slice(i, i + 300).map((r) => ({ scope: r.scope, published_at: r.position.p, item_id: r.position.id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
