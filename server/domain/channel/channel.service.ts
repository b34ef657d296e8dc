/**
 * Channels: list, create and update, for the publishing API and the
 * content/ importer.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import * as channels from '../../store/channel.repository.ts';
import { listMediaFileNames } from '../../store/media.repository.ts';
import { findAccountById, findAccountByName } from '../../store/account.repository.ts';
import { listMembersWithAccounts } from '../../store/channel-member.repository.ts';
import type { ChannelRow } from '../../store/channel.table.ts';
import { announcePublicChange } from '../public-change.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import {
  channelAccess,
  isPastLimit,
  requireApiPublishing,
  requireChannelManage,
} from '../account/access.ts';
import { toPlanId, type Principal } from '../account/account.service.ts';
import { planFeatures } from '../account/plans.ts';
import { PressroomError, validationError } from '../errors.ts';
import { firstFreeSlug, GENERATED_SUFFIX_ROOM, RESERVED_CHANNEL_SLUGS, SLUG_MAX_LENGTH, slugify } from '../slug.ts';
import type { ModerationField, ModerationPolicy } from '../moderation/moderation-policy.ts';
import { assertPublicFieldsAllowed } from '../moderation/public-fields.ts';
import type { ChannelCreateInput, ChannelUpdateInput } from './channel.schema.ts';
import { toChannelView, type ChannelView } from './channel-view.ts';

/** What the channel service needs. */
export interface ChannelDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly urls: PublicUrls;
  /** Judges the channel's public texts, which go public as they are written. */
  readonly moderation: ModerationPolicy;
}

/** The texts of a channel write that readers see, named as in the request. */
function publicFields(input: ChannelCreateInput | ChannelUpdateInput): ModerationField[] {
  const fields: ModerationField[] = (input.translations ?? []).flatMap((t, i) => [
    { name: `translations.${i}.title`, value: t.title },
    { name: `translations.${i}.description`, value: t.description },
  ]);
  if ('title' in input) fields.push({ name: 'title', value: input.title });
  if ('description' in input) fields.push({ name: 'description', value: input.description });
  return fields;
}

async function mediaNames(db: Executor, channel: ChannelRow): Promise<{ avatar: string | null; cover: string | null }> {
  const ids = [channel.avatar_media_id, channel.cover_media_id].filter((id): id is number => id !== null);
  if (ids.length === 0) return { avatar: null, cover: null };
  const rows = await listMediaFileNames(db, ids);
  const name = (id: number | null) => rows.find((r) => r.id === id)?.file_name ?? null;
  return { avatar: name(channel.avatar_media_id), cover: name(channel.cover_media_id) };
}

/** Channels the caller owns or was invited to, with permission flags. */
export async function listChannels(deps: ChannelDeps, principal: Principal): Promise<ChannelView[]> {
  requireApiPublishing(principal);
  const rows = await channels.listChannelsForAccount(deps.db, principal.accountId);
  const translations = await channels.listChannelTranslations(deps.db, rows.map((r) => r.id));
  // Most channels share an owner: look each owner's plan and channels up once.
  const owners = new Map<number, { limit: number; owned: number[] }>();
  const ownerOf = async (id: number) => {
    let found = owners.get(id);
    if (!found) {
      const owner = await findAccountById(deps.db, id);
      found = { limit: planFeatures(toPlanId(owner?.plan ?? 'reader')).channelLimit, owned: await channels.ownedChannelIds(deps.db, id) };
      owners.set(id, found);
    }
    return found;
  };
  const views: ChannelView[] = [];
  for (const row of rows) {
    const owner = await ownerOf(row.owner_account_id);
    const readOnly = isPastLimit(owner.owned, row.id, owner.limit);
    views.push(
      toChannelView(
        row,
        translations,
        { role: row.role, canWriteArticles: row.can_write_articles === 1, canManageChannel: row.can_manage_channel === 1, readOnly },
        deps.urls,
        await mediaNames(deps.db, row),
      ),
    );
  }
  return views;
}

/** Reads one channel the caller can access. */
export async function getChannel(deps: ChannelDeps, principal: Principal, slug: string): Promise<ChannelView> {
  requireApiPublishing(principal);
  return viewFor(deps, deps.db, principal, slug);
}

async function viewFor(deps: ChannelDeps, db: Executor, principal: Principal, slug: string): Promise<ChannelView> {
  const access = await channelAccess(db, principal, slug);
  const translations = await channels.listChannelTranslations(db, [access.channel.id]);
  return toChannelView(
    access.channel,
    translations,
    {
      role: access.role,
      canWriteArticles: access.canWriteArticles,
      canManageChannel: access.canManageChannel,
      readOnly: access.readOnly,
    },
    deps.urls,
    await mediaNames(db, access.channel),
  );
}

async function chooseSlug(db: Executor, input: ChannelCreateInput): Promise<string> {
  if (input.slug !== undefined) {
    if (RESERVED_CHANNEL_SLUGS.has(input.slug)) {
      throw validationError({ slug: `"${input.slug}" is reserved for the site's own paths. Choose another slug.` });
    }
    if (await channels.channelSlugExists(db, input.slug)) {
      throw validationError({ slug: `The slug "${input.slug}" is already taken by another channel. Choose another slug, or omit it to have one generated.` });
    }
    return input.slug;
  }
  const title = input.translations.find((t) => t.language === input.default_language)?.title ?? '';
  const base = slugify(title) ?? 'channel';
  // Candidates past the first cut the base short to fit their suffix (`firstFreeSlug`): look for taken slugs by the
  // prefix every candidate up to `-9999999` shares, or a long title's third channel would collide (a 500).
  const shared = base.slice(0, SLUG_MAX_LENGTH - GENERATED_SUFFIX_ROOM).replace(/-+$/g, '');
  const taken = new Set(await channels.channelSlugsStartingWith(db, shared));
  return firstFreeSlug(base, (candidate) => taken.has(candidate) || RESERVED_CHANNEL_SLUGS.has(candidate));
}

/**
 * Creates a channel owned by the caller, in one transaction.
 * @throws PressroomError CHANNEL_LIMIT_REACHED when the plan's channel limit is reached.
 * @throws PressroomError CONTENT_REFUSED when a title or description breaks the moderation rules.
 */
export async function createChannel(deps: ChannelDeps, principal: Principal, input: ChannelCreateInput): Promise<ChannelView> {
  requireApiPublishing(principal);
  assertPublicFieldsAllowed(deps.moderation, publicFields(input));
  return deps.db.transaction().execute(async (trx) => {
    const channel = await insertChannelFor(trx, deps.clock, principal, input);
    return viewFor(deps, trx, principal, channel.slug);
  });
}

/**
 * Inserts a channel with its translations and the owner's membership.
 * Runs inside the caller's transaction; used by the API and the content importer.
 */
export async function insertChannelFor(
  trx: Executor,
  clock: Clock,
  principal: Pick<Principal, 'accountId' | 'plan'>,
  input: ChannelCreateInput,
): Promise<ChannelRow> {
  const limit = planFeatures(principal.plan).channelLimit;
  const owned = await channels.ownedChannelIds(trx, principal.accountId);
  if (owned.length >= limit) {
    throw new PressroomError(
      'CHANNEL_LIMIT_REACHED',
      `The account already owns ${owned.length} channel${owned.length === 1 ? '' : 's'}, the most its "${principal.plan}" plan allows (${limit}). Reuse a channel or upgrade the plan.`,
    );
  }
  const now = isoNow(clock);
  const channel = await channels.insertChannel(trx, {
    slug: await chooseSlug(trx, input),
    owner_account_id: principal.accountId,
    default_language: input.default_language,
    status: input.status ?? 'active',
    homepage_enabled: input.homepage_enabled === false ? 0 : 1,
    watermark_enabled: input.watermark_enabled ? 1 : 0,
    avatar_media_id: null,
    cover_media_id: null,
    created_at: now,
    updated_at: now,
  });
  for (const t of input.translations) {
    await channels.upsertChannelTranslation(trx, { channel_id: channel.id, language: t.language, title: t.title, description: t.description ?? null });
  }
  await channels.upsertMembership(trx, {
    channel_id: channel.id,
    account_id: principal.accountId,
    role: 'owner',
    can_write_articles: 1,
    can_manage_channel: 1,
    created_at: now,
  });
  // A new active channel has public pages (an empty list, feeds) from the start.
  await announcePublicChange(trx, { kind: 'channel', channelId: channel.id }, now);
  return channel;
}

/**
 * Updates a channel; omitted fields keep their value. Translations are merged
 * by language (a language not sent is kept). `title`/`description` change the
 * default language's translation.
 * @throws PressroomError CONTENT_REFUSED when a title or description breaks the moderation rules.
 */
export async function updateChannel(
  deps: ChannelDeps,
  principal: Principal,
  slug: string,
  input: ChannelUpdateInput,
): Promise<ChannelView> {
  requireApiPublishing(principal);
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, slug);
    requireChannelManage(access);
    assertPublicFieldsAllowed(deps.moderation, publicFields(input));
    await applyChannelUpdate(trx, deps.clock, access.channel, input);
    return viewFor(deps, trx, principal, slug);
  });
}

/** Applies an update to a channel inside the caller's transaction. */
export async function applyChannelUpdate(trx: Executor, clock: Clock, channel: ChannelRow, input: ChannelUpdateInput): Promise<void> {
  const existing = await channels.listChannelTranslations(trx, [channel.id]);
  const languages = new Set([...existing.map((t) => t.language), ...(input.translations ?? []).map((t) => t.language)]);
  const defaultLanguage = input.default_language ?? channel.default_language;
  if (!languages.has(defaultLanguage)) {
    throw validationError({
      default_language: `The channel has no translation in "${defaultLanguage}". Add one in translations in the same request.`,
    });
  }
  // Merged field by field: an omitted field keeps the stored value, an explicit null clears the description.
  const stored = new Map(existing.map((t) => [t.language, t]));
  const missingTitles: Record<string, string> = {};
  (input.translations ?? []).forEach((t, i) => {
    if (t.title === undefined && !stored.has(t.language)) {
      missingTitles[`translations.${i}.title`] = `Required for "${t.language}", a language the channel does not have yet. Give its title; for a language it has, title may be left out to keep it.`;
    }
  });
  if (Object.keys(missingTitles).length > 0) throw validationError(missingTitles);
  for (const t of input.translations ?? []) {
    const before = stored.get(t.language);
    await channels.upsertChannelTranslation(trx, {
      channel_id: channel.id,
      language: t.language,
      title: t.title ?? before!.title,
      description: t.description === undefined ? (before?.description ?? null) : t.description,
    });
  }
  if (input.title !== undefined || input.description !== undefined) {
    const current = (await channels.listChannelTranslations(trx, [channel.id])).find((t) => t.language === defaultLanguage)!;
    await channels.upsertChannelTranslation(trx, {
      channel_id: channel.id,
      language: defaultLanguage,
      title: input.title ?? current.title,
      description: input.description === undefined ? current.description : input.description,
    });
  }
  await channels.updateChannel(trx, channel.id, {
    default_language: defaultLanguage,
    ...(input.status !== undefined && { status: input.status }),
    ...(input.homepage_enabled !== undefined && { homepage_enabled: input.homepage_enabled ? 1 : 0 }),
    ...(input.watermark_enabled !== undefined && { watermark_enabled: input.watermark_enabled ? 1 : 0 }),
    updated_at: isoNow(clock),
  });
  await announcePublicChange(trx, { kind: 'channel', channelId: channel.id }, isoNow(clock));
}

/** A member of a channel as its managers see it. */
export interface ChannelMemberView {
  readonly account: string;
  readonly role: 'owner' | 'editor';
  readonly canWriteArticles: boolean;
  readonly canManageChannel: boolean;
  readonly since: string;
}

/**
 * The channel's owner and invited editors, for those who may manage it.
 * @throws PressroomError CHANNEL_PERMISSION_DENIED for a member without can_manage_channel.
 */
export async function listChannelMembers(deps: ChannelDeps, principal: Principal, slug: string): Promise<ChannelMemberView[]> {
  requireApiPublishing(principal);
  const access = await channelAccess(deps.db, principal, slug);
  if (!access.canManageChannel) {
    throw new PressroomError('CHANNEL_PERMISSION_DENIED', `Only those who may manage the channel "${slug}" see its editors. Ask its owner for the can_manage_channel permission.`);
  }
  return (await listMembersWithAccounts(deps.db, [access.channel.id])).map((m) => ({
    account: m.account_name,
    role: m.role,
    canWriteArticles: m.can_write_articles === 1,
    canManageChannel: m.can_manage_channel === 1,
    since: m.created_at,
  }));
}

/** Permissions an invitation gives when it does not say. */
export const INVITE_DEFAULTS = Object.freeze({ write: true, manage: false });

/**
 * Makes `account` an editor of the channel, or changes its permissions, in the caller's transaction: the one
 * rule of memberships, for the dashboard and `admin channel invite`. A new editor gets {@link INVITE_DEFAULTS}
 * for permissions not given; an existing editor keeps them.
 * @throws PressroomError VALIDATION_FAILED (field `account`) when the account owns the channel.
 */
export async function applyMembership(
  trx: Executor,
  clock: Clock,
  channel: ChannelRow,
  account: { id: number; name: string },
  permissions: { write?: boolean; manage?: boolean },
): Promise<{ created: boolean; write: boolean; manage: boolean }> {
  const existing = await channels.findMembership(trx, channel.id, account.id);
  if (channel.owner_account_id === account.id || existing?.role === 'owner') {
    const message = `"${account.name}" owns the channel "${channel.slug}" and already has every permission. Invite another account.`;
    throw new PressroomError('VALIDATION_FAILED', message, { fields: { account: message } });
  }
  const write = permissions.write ?? (existing ? existing.can_write_articles === 1 : INVITE_DEFAULTS.write);
  const manage = permissions.manage ?? (existing ? existing.can_manage_channel === 1 : INVITE_DEFAULTS.manage);
  await channels.upsertMembership(trx, {
    channel_id: channel.id,
    account_id: account.id,
    role: 'editor',
    can_write_articles: write ? 1 : 0,
    can_manage_channel: manage ? 1 : 0,
    created_at: existing?.created_at ?? isoNow(clock),
  });
  return { created: !existing, write, manage };
}

/**
 * Invites an existing account to the channel as an editor, or changes an editor's permissions, for a member
 * who may manage the channel. Only the owner gives `can_manage_channel`.
 * @throws PressroomError CHANNEL_PERMISSION_DENIED, or VALIDATION_FAILED (field `account`) for an unknown account or the owner.
 */
export async function inviteMember(
  deps: ChannelDeps,
  principal: Principal,
  slug: string,
  input: { account: string; write: boolean; manage: boolean },
): Promise<{ created: boolean }> {
  requireApiPublishing(principal);
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, slug);
    requireChannelManage(access);
    if (input.manage && access.role !== 'owner') {
      throw new PressroomError('CHANNEL_PERMISSION_DENIED', `Only the owner of "${slug}" gives can_manage_channel. Invite the editor without it, or ask the owner.`);
    }
    const account = await findAccountByName(trx, input.account);
    if (!account) throw validationError({ account: `No account is named "${input.account}". Check the spelling, or ask the site's administrator to create the account.` });
    const applied = await applyMembership(trx, deps.clock, access.channel, account, { write: input.write, manage: input.manage });
    return { created: applied.created };
  });
}

/**
 * Removes an editor from the channel, for a member who may manage it (the owner stays).
 * @throws PressroomError CHANNEL_PERMISSION_DENIED, or NOT_FOUND when the account is no editor of the channel.
 */
export async function removeMember(deps: ChannelDeps, principal: Principal, slug: string, accountName: string): Promise<void> {
  requireApiPublishing(principal);
  await deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, slug);
    requireChannelManage(access);
    const account = await findAccountByName(trx, accountName);
    if (!account || !(await channels.deleteEditorMembership(trx, access.channel.id, account.id))) {
      throw new PressroomError('NOT_FOUND', `"${accountName}" is no editor of "${slug}". Reload the settings page to see its editors.`);
    }
  });
}
