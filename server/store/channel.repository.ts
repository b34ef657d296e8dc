/**
 * Channels, their translations and members. Functions take the executor
 * first; the caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { ChannelMemberRow, ChannelRow, ChannelTranslationRow, ChannelUpdate, NewChannelRow } from './channel.table.ts';

/** A channel by slug. */
export async function findChannelBySlug(db: Executor, slug: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** A channel by id. */
export async function findChannelById(db: Executor, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}

/** True when a channel uses the slug. */
export async function channelSlugExists(db: Executor, slug: string): Promise<boolean> {
  const row = await db.selectFrom('channels').select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/** Inserts a channel and returns it. */
export async function insertChannel(db: Executor, row: NewChannelRow): Promise<ChannelRow> {
  return db.insertInto('channels').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Updates a channel's columns. */
export async function updateChannel(db: Executor, id: number, patch: ChannelUpdate): Promise<void> {
  await db.updateTable('channels').set(patch).where('id', '=', id).execute();
}

/** Inserts or replaces the title and description of a channel in one language. */
export async function upsertChannelTranslation(db: Executor, row: ChannelTranslationRow): Promise<void> {
  await db
    .insertInto('channel_translations')
    .values(row)
    .onConflict((oc) => oc.columns(['channel_id', 'language']).doUpdateSet({ title: row.title, description: row.description }))
    .execute();
}

/** Translations of the given channels, by language. */
export async function listChannelTranslations(db: Executor, channelIds: readonly number[]): Promise<ChannelTranslationRow[]> {
  if (channelIds.length === 0) return [];
  return db
    .selectFrom('channel_translations')
    .selectAll()
    .where('channel_id', 'in', channelIds)
    .orderBy('channel_id')
    .orderBy('language')
    .execute();
}

/** The membership of an account in a channel. */
export async function findMembership(db: Executor, channelId: number, accountId: number): Promise<ChannelMemberRow | undefined> {
  return db
    .selectFrom('channel_members')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Adds or changes a membership. */
export async function upsertMembership(db: Executor, row: ChannelMemberRow): Promise<void> {
  await db
    .insertInto('channel_members')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['channel_id', 'account_id']).doUpdateSet({
        role: row.role,
        can_write_articles: row.can_write_articles,
        can_manage_channel: row.can_manage_channel,
      }),
    )
    .execute();
}

/** Removes an editor from a channel (never the owner's membership). @returns whether one was removed. */
export async function deleteEditorMembership(db: Executor, channelId: number, accountId: number): Promise<boolean> {
  const result = await db.deleteFrom('channel_members').where('channel_id', '=', channelId).where('account_id', '=', accountId).where('role', '=', 'editor').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Channels an account owns or was invited to, with its membership, oldest first. */
export async function listChannelsForAccount(
  db: Executor,
  accountId: number,
): Promise<Array<ChannelRow & Pick<ChannelMemberRow, 'role' | 'can_write_articles' | 'can_manage_channel'>>> {
  return db
    .selectFrom('channels')
    .innerJoin('channel_members', 'channel_members.channel_id', 'channels.id')
    .selectAll('channels')
    .select(['channel_members.role', 'channel_members.can_write_articles', 'channel_members.can_manage_channel'])
    .where('channel_members.account_id', '=', accountId)
    .orderBy('channels.id')
    .execute();
}

/** Ids of the channels an account owns, oldest first. */
export async function ownedChannelIds(db: Executor, accountId: number): Promise<number[]> {
  const rows = await db.selectFrom('channels').select('id').where('owner_account_id', '=', accountId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Every channel, oldest first (for builds and admin listings). */
export async function listAllChannels(db: Executor): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().orderBy('id').execute();
}

/** Channel slugs that start with `prefix` (taken names when making a new slug). */
export async function channelSlugsStartingWith(db: Executor, prefix: string): Promise<string[]> {
  return (await db.selectFrom('channels').select('slug').where('slug', 'like', `${prefix}%`).execute()).map((r) => r.slug);
}
