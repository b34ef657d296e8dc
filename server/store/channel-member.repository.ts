/**
 * Read-side queries over channel membership and ownership that the admin
 * listings need (member names, channels owned per account). Functions take
 * the executor first; the caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { ChannelMemberRow } from './channel.table.ts';

/** A membership with the member's account name. */
export type MemberWithAccount = ChannelMemberRow & { account_name: string };

/**
 * Memberships of the given channels (owners included), with account names,
 * ordered by channel then by when the member joined.
 */
export async function listMembersWithAccounts(db: Executor, channelIds: readonly number[]): Promise<MemberWithAccount[]> {
  if (channelIds.length === 0) return [];
  return db
    .selectFrom('channel_members')
    .innerJoin('accounts', 'accounts.id', 'channel_members.account_id')
    .selectAll('channel_members')
    .select('accounts.name as account_name')
    .where('channel_members.channel_id', 'in', channelIds)
    .orderBy('channel_members.channel_id')
    .orderBy('channel_members.created_at')
    .orderBy('accounts.name')
    .execute();
}

/**
 * How many channels each account owns, by account id. Accounts owning none
 * are absent from the map, so read it with `?? 0`.
 */
export async function countOwnedChannels(db: Executor): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('channels')
    .select((eb) => ['owner_account_id', eb.fn.countAll<number>().as('n')])
    .groupBy('owner_account_id')
    .execute();
  return new Map(rows.map((r) => [r.owner_account_id, Number(r.n)]));
}
