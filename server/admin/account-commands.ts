/**
 * `account list` and `account plan`.
 * @module
 */
import { toPlanId } from '../domain/account/account.service.ts';
import { planFeatures, type PlanId } from '../domain/account/plans.ts';
import { listAccounts as listAccountRows, updateAccount } from '../store/account.repository.ts';
import { countOwnedChannels } from '../store/channel-member.repository.ts';
import { ownedChannelIds } from '../store/channel.repository.ts';
import { output, requireAccount, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { formatTable, formatTime, plural } from './table.ts';
import { pauseSchedulesIfPlanDisallows } from '../domain/article/schedule.service.ts';
import { generatePassword, setAdministrator, setPassword } from '../domain/account/session.service.ts';
import { UsageError } from './args.ts';

/**
 * Every account with its plan, channels owned and review flag. A count past
 * the plan's limit is marked, because those extra channels are read-only.
 */
export async function listAccounts(deps: AdminDeps): Promise<CommandOutput> {
  const accounts = await listAccountRows(deps.db);
  if (accounts.length === 0) {
    return output(['No accounts yet. Create one with "npm run admin -- key create --account NAME".']);
  }
  const owned = await countOwnedChannels(deps.db);
  const rows = accounts.map((a) => [a.name, a.plan, channelCount(owned.get(a.id) ?? 0, a.plan), a.review_required ? 'yes' : 'no', formatTime(a.created_at)]);
  return output([formatTable(['NAME', 'PLAN', 'CHANNELS', 'REVIEW', 'CREATED (UTC)'], rows)]);
}

/** Channels owned, e.g. `2`, or `5 (limit 3)` when past the plan's limit. */
export function channelCount(count: number, plan: string): string {
  const limit = planFeatures(toPlanId(plan)).channelLimit;
  return count > limit ? `${count} (limit ${limit})` : String(count);
}

/**
 * Moves an account to another plan. Says so when the account now owns more
 * channels than the plan allows, since the newest of them turn read-only.
 * @throws PressroomError NOT_FOUND when the account does not exist.
 */
export async function changePlan(deps: AdminDeps, input: { account: string; plan: PlanId }): Promise<CommandOutput & { changed: boolean }> {
  return deps.db.transaction().execute(async (trx) => {
    const account = await requireAccount(trx, input.account);
    if (account.plan === input.plan) {
      return { ...output([`Account "${account.name}" is already on plan ${input.plan}.`]), changed: false };
    }
    await updateAccount(trx, account.id, { plan: input.plan });
    const notes: string[] = [];
    const features = planFeatures(input.plan);
    const owned = (await ownedChannelIds(trx, account.id)).length;
    if (owned > features.channelLimit) {
      notes.push(
        `Note: "${account.name}" owns ${plural(owned, 'channel')} but plan ${input.plan} allows ${features.channelLimit}; the newest ${owned - features.channelLimit} are now read-only.`,
      );
    }
    const paused = await pauseSchedulesIfPlanDisallows(trx, deps.clock, account.id);
    if (paused > 0) {
      notes.push(
        `Note: plan ${input.plan} has no scheduling; ${plural(paused, 'scheduled article')} of "${account.name}" paused (scheduled_paused, reason account_plan). They need a new time or a manual publish after an upgrade.`,
      );
    }
    if (!features.apiPublishing) notes.push(`Note: plan ${input.plan} has no API publishing; the keys of "${account.name}" are refused by the publishing API.`);
    return { ...output([`Changed the plan of "${account.name}" from ${account.plan} to ${input.plan}.`], notes), changed: true };
  });
}

/**
 * Sets the password an account signs in to the dashboard with, and ends its sessions. With `generate`, a
 * random one is made and printed (stdout, alone); otherwise it is read with `readSecret` (typed unseen, or
 * piped in), never taken from the command line.
 */
export async function setAccountPassword(deps: AdminDeps, input: { account: string; generate: boolean }): Promise<CommandOutput> {
  await requireAccount(deps.db, input.account);
  let password: string;
  if (input.generate) password = generatePassword();
  else {
    if (!deps.readSecret) throw new UsageError('No password to read: pipe it in (printf \'%s\\n\' "$PASSWORD" | npm run admin -- account password --account NAME), or use --generate.');
    password = await deps.readSecret(`New password for "${input.account}" (not shown): `);
    if (password === '') throw new UsageError('No password was given. Type one (at least 12 characters) or pipe it in; --generate makes one.');
  }
  const { sessionsEnded } = await setPassword(deps, input.account, password);
  const notes = [
    `Set the password of "${input.account}"${sessionsEnded > 0 ? `; ended its ${plural(sessionsEnded, 'session')}` : ''}.`,
    'Sign in at /dashboard/login on the server (PRESSROOM_DASHBOARD_URL when it is served elsewhere).',
  ];
  return output(input.generate ? [password] : [], notes);
}

/** Makes an account an administrator of the dashboard (its moderation queue), or not. */
export async function administratorCommand(deps: AdminDeps, input: { account: string; on: boolean }): Promise<CommandOutput> {
  const { changed } = await setAdministrator(deps, input.account, input.on);
  const state = input.on ? 'an administrator: it decides moderation in the dashboard (/dashboard/moderation)' : 'no administrator';
  return output([changed ? `"${input.account}" is now ${state}.` : `"${input.account}" is ${state} already.`]);
}
