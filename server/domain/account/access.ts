/**
 * Who may do what on a channel: plan features, membership and the plan's
 * channel limit. Every route that touches a channel asks here.
 * @module
 */
import type { Executor } from '../../store/database.ts';
import * as channels from '../../store/channel.repository.ts';
import { findAccountById } from '../../store/account.repository.ts';
import type { ChannelRow } from '../../store/channel.table.ts';
import { PressroomError } from '../errors.ts';
import type { Principal } from './account.service.ts';
import { toPlanId } from './account.service.ts';
import { planFeatures, type PlanFeatures } from './plans.ts';

/** What the caller may do on one channel. */
export interface ChannelAccess {
  readonly channel: ChannelRow;
  /** The caller's role in the channel. */
  readonly role: 'owner' | 'editor';
  readonly canWriteArticles: boolean;
  readonly canManageChannel: boolean;
  /** True when the owner has more channels than the plan allows and this one is past the limit. */
  readonly readOnly: boolean;
  /** Features of the owner's plan, which the channel follows. */
  readonly ownerPlan: PlanFeatures;
}

/** @throws PressroomError PLAN_NO_API_PUBLISHING when the caller's plan lacks API publishing. */
export function requireApiPublishing(principal: Principal): void {
  if (!planFeatures(principal.plan).apiPublishing) {
    throw new PressroomError(
      'PLAN_NO_API_PUBLISHING',
      `The account "${principal.accountName}" is on the "${principal.plan}" plan, which does not include API publishing. Change the plan (npm run admin -- account plan) to one that does.`,
    );
  }
}

/**
 * Whether a channel is past its owner's channel limit. The oldest channels
 * stay writable; those created after the limit was reached become read-only.
 */
export async function isChannelReadOnly(db: Executor, channel: ChannelRow, ownerPlan: PlanFeatures): Promise<boolean> {
  return isPastLimit(await channels.ownedChannelIds(db, channel.owner_account_id), channel.id, ownerPlan.channelLimit);
}

/** Whether `channelId` is past the limit among the owner's channels (ids oldest first). */
export function isPastLimit(ownedIds: readonly number[], channelId: number, limit: number): boolean {
  return ownedIds.length > limit && ownedIds.indexOf(channelId) >= limit;
}

/**
 * Loads a channel and what the caller may do with it.
 * @throws PressroomError CHANNEL_NOT_FOUND, or CHANNEL_ACCESS_DENIED when the caller is no member.
 */
export async function channelAccess(db: Executor, principal: Principal, slug: string): Promise<ChannelAccess> {
  const channel = await channels.findChannelBySlug(db, slug);
  if (!channel) {
    throw new PressroomError('CHANNEL_NOT_FOUND', `No channel with the slug "${slug}" exists. List your channels with GET /api/v1/channels.`);
  }
  const member = await channels.findMembership(db, channel.id, principal.accountId);
  if (!member) {
    throw new PressroomError(
      'CHANNEL_ACCESS_DENIED',
      `The account "${principal.accountName}" has no access to the channel "${slug}". Ask its owner to invite you (npm run admin -- channel invite).`,
    );
  }
  const owner = await findAccountById(db, channel.owner_account_id);
  const ownerPlan = planFeatures(toPlanId(owner?.plan ?? 'reader'));
  return {
    channel,
    role: member.role,
    canWriteArticles: member.can_write_articles === 1,
    canManageChannel: member.can_manage_channel === 1,
    readOnly: await isChannelReadOnly(db, channel, ownerPlan),
    ownerPlan,
  };
}

/**
 * @throws PressroomError when the caller may not write articles in the channel. `withdrawing`: the write only
 * takes things down (unpublish, archive, hide from the homepage), which a read-only channel still allows, so
 * its owner can withdraw what it shows (issue 40).
 */
export function requireArticleWrite(access: ChannelAccess, options: { withdrawing?: boolean } = {}): void {
  if (!options.withdrawing) requireWritable(access);
  if (!access.canWriteArticles) {
    throw new PressroomError(
      'CHANNEL_PERMISSION_DENIED',
      `You may not write articles in the channel "${access.channel.slug}". Ask its owner for the can_write_articles permission.`,
    );
  }
}

/** @throws PressroomError when the caller may not change the channel's settings. */
export function requireChannelManage(access: ChannelAccess): void {
  requireWritable(access);
  if (!access.canManageChannel) {
    throw new PressroomError(
      'CHANNEL_PERMISSION_DENIED',
      `You may not change the settings of the channel "${access.channel.slug}". Ask its owner for the can_manage_channel permission.`,
    );
  }
}

function requireWritable(access: ChannelAccess): void {
  if (access.readOnly) {
    throw new PressroomError(
      'CHANNEL_READ_ONLY',
      `The channel "${access.channel.slug}" is read-only: its owner has more channels than the plan allows (${access.ownerPlan.channelLimit}). Upgrade the owner's plan to write again. Taking articles down still works: status "draft" or "archived", and homepage_mode "hide".`,
    );
  }
}
