/**
 * `channel invite` and `channel list`.
 * @module
 */
import { isChannelReadOnly } from '../domain/account/access.ts';
import { toPlanId } from '../domain/account/account.service.ts';
import { planFeatures } from '../domain/account/plans.ts';
import { PressroomError } from '../domain/errors.ts';
import { findChannelBySlug, listAllChannels } from '../store/channel.repository.ts';
import { applyMembership } from '../domain/channel/channel.service.ts';
import { listMembersWithAccounts, type MemberWithAccount } from '../store/channel-member.repository.ts';
import { listAccounts } from '../store/account.repository.ts';
import type { Executor } from '../store/database.ts';
import { output, requireAccount, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { formatTable } from './table.ts';

export { INVITE_DEFAULTS } from '../domain/channel/channel.service.ts';

/**
 * Makes an account an editor of a channel. A new editor gets
 * {@link INVITE_DEFAULTS} for permissions not given; an existing editor keeps
 * them, so `--manage` alone only adds that permission.
 * @throws PressroomError CHANNEL_NOT_FOUND, NOT_FOUND (account), or VALIDATION_FAILED when the account owns the channel.
 */
export async function inviteEditor(
  deps: AdminDeps,
  input: { channel: string; account: string; write?: boolean; manage?: boolean },
): Promise<CommandOutput & { created: boolean }> {
  return deps.db.transaction().execute(async (trx) => {
    const channel = await findChannelBySlug(trx, input.channel);
    if (!channel) {
      throw new PressroomError('CHANNEL_NOT_FOUND', `No channel has the slug "${input.channel}". See the channels with "npm run admin -- channel list".`);
    }
    const account = await requireAccount(trx, input.account);
    const { created, write, manage } = await applyMembership(trx, deps.clock, channel, account, { write: input.write, manage: input.manage });
    const perms = `write articles: ${write ? 'yes' : 'no'}, manage channel: ${manage ? 'yes' : 'no'}`;
    const line = !created
      ? `Updated "${account.name}" in channel "${channel.slug}" (${perms}).`
      : `Invited "${account.name}" to channel "${channel.slug}" as editor (${perms}).`;
    const notes = planFeatures(toPlanId(account.plan)).apiPublishing
      ? []
      : [`Note: "${account.name}" is on plan ${account.plan}, which has no API publishing; they cannot use the channel until their plan changes.`];
    return { ...output([line], notes), created };
  });
}

/** Every channel with its owner, status (read-only when past the owner's limit) and editors. */
export async function listChannels(deps: AdminDeps): Promise<CommandOutput> {
  const channels = await listAllChannels(deps.db);
  if (channels.length === 0) {
    return output(['No channels yet. Channels are created through the publishing API (POST /api/v1/channels) or content/.']);
  }
  const accounts = new Map((await listAccounts(deps.db)).map((a) => [a.id, a]));
  const members = await listMembersWithAccounts(deps.db, channels.map((c) => c.id));
  const rows: string[][] = [];
  for (const channel of channels) {
    const owner = accounts.get(channel.owner_account_id);
    const editors = members.filter((m) => m.channel_id === channel.id && m.role === 'editor');
    rows.push([channel.slug, owner?.name ?? `#${channel.owner_account_id}`, await channelStatus(deps.db, channel, owner?.plan), editors.map(describeEditor).join(', ')]);
  }
  return output([formatTable(['CHANNEL', 'OWNER', 'STATUS', 'EDITORS'], rows)]);
}

async function channelStatus(db: Executor, channel: Parameters<typeof isChannelReadOnly>[1], ownerPlan: string | undefined): Promise<string> {
  const readOnly = await isChannelReadOnly(db, channel, planFeatures(toPlanId(ownerPlan ?? 'reader')));
  return readOnly ? `${channel.status}, read-only` : channel.status;
}

/** An editor as `bob (write)`, `carol (write, manage)` or `dan (read only)`. */
export function describeEditor(member: Pick<MemberWithAccount, 'account_name' | 'can_write_articles' | 'can_manage_channel'>): string {
  const perms = [member.can_write_articles ? 'write' : null, member.can_manage_channel ? 'manage' : null].filter(Boolean);
  return `${member.account_name} (${perms.length > 0 ? perms.join(', ') : 'read only'})`;
}
