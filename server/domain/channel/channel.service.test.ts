/**
 * The channel service (`channel.service.ts`) over a real migrated SQLite file
 * and real keys: creating, updating, listing and reading channels, the
 * permission flags each answer carries, read-only channels past the owner's
 * plan limit, and the outbox row every public change writes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changePlan } from '../../admin/account-commands.ts';
import { inviteEditor } from '../../admin/channel-commands.ts';
import { createKey } from '../../admin/key-commands.ts';
import { authenticate, type Principal } from '../account/account.service.ts';
import { createRulePolicy } from '../moderation/moderation-policy.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { findMembership } from '../../store/channel.repository.ts';
import { listEvents } from '../../store/publication-event.repository.ts';
import { CASE_RULES } from '../../../test/support/moderation-cases.ts';
import { createTestChannel, openTestDeps, type TestDeps } from '../../../test/support/admin-deps.ts';
import { channelCreateSchema, channelUpdateSchema } from './channel.schema.ts';
import { createChannel, getChannel, insertChannelFor, listChannels, updateChannel, type ChannelDeps } from './channel.service.ts';
import { expectError } from '../../../test/support/expect-error.ts';

let t: TestDeps;
let deps: ChannelDeps;
let ana: Principal;
beforeEach(async () => {
  t = await openTestDeps();
  // The case rules block "spamword" and send "lawsuit" to a person: a channel's texts go public at once, so both are refused.
  deps = { db: t.db, clock: t.clock, urls: createPublicUrls('https://press.example', 'https://press.example/dashboard'), moderation: createRulePolicy(CASE_RULES) };
  ana = await authenticate(t, (await createKey(t, { account: 'ana', plan: 'pro' })).key);
});
afterEach(async () => t.cleanup());

const create = (principal: Principal, body: Record<string, unknown>) => createChannel(deps, principal, channelCreateSchema.parse(body));
const update = (principal: Principal, slug: string, body: Record<string, unknown>) => updateChannel(deps, principal, slug, channelUpdateSchema.parse(body));
const titled = (title: string, extra: Record<string, unknown> = {}) => ({ default_language: 'en', translations: [{ language: 'en', title }], ...extra });
const channelEvents = async (channelId: number) => (await listEvents(t.db)).filter((e) => e.channelId === channelId).map((e) => e.kind);

async function principalOf(account: string, plan: 'reader' | 'free' | 'pro' = 'free'): Promise<Principal> {
  return authenticate(t, (await createKey(t, { account, plan })).key);
}


describe('createChannel', () => {
  it('creates an active channel owned by the caller, with every permission, and announces it', async () => {
    const view = await create(ana, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News', description: 'Daily.' }, { language: 'fr', title: 'Nouvelles' }] });
    expect(view).toMatchObject({
      slug: 'news',
      title: 'News',
      description: 'Daily.',
      status: 'active',
      homepage_enabled: true,
      watermark_enabled: false,
      url: 'https://press.example/news/',
      avatar_url: null,
      role: 'owner',
      can_write_articles: true,
      can_manage_channel: true,
      read_only: false,
      created_at: '2026-11-22T12:00:00.000Z',
    });
    expect(view.translations).toEqual([
      { language: 'en', title: 'News', description: 'Daily.' },
      { language: 'fr', title: 'Nouvelles', description: null },
    ]);
    expect(await findMembership(t.db, view.id, ana.accountId)).toMatchObject({ role: 'owner', can_write_articles: 1, can_manage_channel: 1 });
    // A new active channel has public pages (its empty list, its feeds) at once.
    expect(await channelEvents(view.id)).toEqual(['channel_changed']);
  });

  it('takes the status and switches it is given', async () => {
    const view = await create(ana, titled('Quiet', { status: 'hidden', homepage_enabled: false, watermark_enabled: true }));
    expect(view).toMatchObject({ status: 'hidden', homepage_enabled: false, watermark_enabled: true });
  });

  it.each([
    ['from the default language\u2019s title', [], titled('Café Ñews!'), 'cafe-news'],
    ['with a number when the slug is taken', ['tech'], titled('Tech'), 'tech-2'],
    ['skipping reserved slugs', [], titled('API'), 'api-2'],
    ['as "channel" when the title has no letters or digits', [], titled('¡¿!'), 'channel'],
  ] as const)('generates a slug %s', async (_name, existing, body, slug) => {
    for (const s of existing) await create(ana, titled(s, { slug: s }));
    expect((await create(ana, body)).slug).toBe(slug);
  });

  it('gives a long title a free slug every time, however many channels share it (the third was a 500: its cut -2 form was never seen as taken)', async () => {
    const title = 'b'.repeat(120);
    const pro = await principalOf('pat', 'pro');
    const slugs: string[] = [];
    for (let i = 0; i < 4; i++) slugs.push((await create(pro, titled(title))).slug);
    expect(slugs).toEqual(['b'.repeat(80), `${'b'.repeat(78)}-2`, `${'b'.repeat(78)}-3`, `${'b'.repeat(78)}-4`]);
    // A slug someone chose that a generated one would cut down to.
    await create(pro, titled('x', { slug: `${'c'.repeat(78)}-2` }));
    await create(pro, titled('c'.repeat(90)));
    expect((await create(pro, titled('c'.repeat(90)))).slug).toBe(`${'c'.repeat(78)}-3`);
  });

  it.each([
    ['a reserved slug', 'media', /^"media" is reserved for the site's own paths\. Choose another slug\.$/],
    ['a taken slug', 'news', /^The slug "news" is already taken by another channel\. Choose another slug, or omit it to have one generated\.$/],
  ])('refuses %s, naming the field', async (_name, slug, message) => {
    await create(ana, titled('News', { slug: 'news' }));
    const error = await expectError(create(ana, titled('Other', { slug })), 'VALIDATION_FAILED');
    expect(error.details).toEqual({ fields: { slug: expect.stringMatching(message) } });
  });

  it('refuses a title or description the moderation rules would not publish, storing nothing', async () => {
    const before = (await listEvents(t.db)).length;
    const error = await expectError(create(ana, { default_language: 'en', translations: [{ language: 'en', title: 'Fine', description: 'About the lawsuit' }] }), 'CONTENT_REFUSED', /"translations\.0\.description"/);
    expect(Object.keys((error.details as { fields: object }).fields)).toEqual(['translations.0.description']);
    expect(await t.db.selectFrom('channels').selectAll().execute()).toEqual([]);
    expect((await listEvents(t.db)).length).toBe(before);
  });

  it('refuses a channel past the plan\u2019s limit, saying how many the plan allows', async () => {
    const bob = await principalOf('bob', 'free');
    for (const slug of ['one', 'two', 'three']) await create(bob, titled(slug, { slug }));
    await expectError(create(bob, titled('four')), 'CHANNEL_LIMIT_REACHED', /^The account already owns 3 channels, the most its "free" plan allows \(3\)\. Reuse a channel or upgrade the plan\.$/);
  });

  it('refuses a plan without API publishing before anything else; insertChannelFor refuses it by its limit of 0', async () => {
    const rita = await principalOf('rita', 'reader');
    await expectError(create(rita, titled('Mine')), 'PLAN_NO_API_PUBLISHING');
    // The importer path has no API check: the plan's channel limit (0) still refuses.
    await expectError(
      t.db.transaction().execute((trx) => insertChannelFor(trx, t.clock, rita, channelCreateSchema.parse(titled('Mine')))),
      'CHANNEL_LIMIT_REACHED',
      /owns 0 channels, the most its "reader" plan allows \(0\)/,
    );
  });
});

describe('listChannels and getChannel', () => {
  it('lists the channels the caller owns or was invited to, oldest first, with its permissions in each', async () => {
    const bob = await principalOf('bob');
    await createTestChannel(t, 'ana', 'news');
    await createTestChannel(t, 'ana', 'sport');
    await createTestChannel(t, 'bob', 'food');
    await createTestChannel(t, 'ana', 'private');
    await inviteEditor(t, { channel: 'news', account: 'bob' });
    await inviteEditor(t, { channel: 'sport', account: 'bob', write: false, manage: true });
    const listed = await listChannels(deps, bob);
    expect(listed.map((c) => [c.slug, c.role, c.can_write_articles, c.can_manage_channel, c.read_only])).toEqual([
      ['news', 'editor', true, false, false],
      ['sport', 'editor', false, true, false],
      ['food', 'owner', true, true, false],
    ]);
    // getChannel answers the same for one channel.
    expect(await getChannel(deps, bob, 'sport')).toEqual(listed[1]);
  });

  it('marks channels past the owner\u2019s plan limit read-only, with no write or manage flag, for the owner and editors alike', async () => {
    const bob = await principalOf('bob');
    for (const slug of ['one', 'two', 'three', 'four']) await createTestChannel(t, 'ana', slug);
    await inviteEditor(t, { channel: 'four', account: 'bob', manage: true });
    await changePlan(t, { account: 'ana', plan: 'free' });
    const anaFree = await principalOf('ana');
    const flags = (views: Awaited<ReturnType<typeof listChannels>>) => views.map((c) => [c.slug, c.read_only, c.can_write_articles, c.can_manage_channel]);
    // The oldest three stay writable; the newest is past the limit.
    expect(flags(await listChannels(deps, anaFree))).toEqual([
      ['one', false, true, true],
      ['two', false, true, true],
      ['three', false, true, true],
      ['four', true, false, false],
    ]);
    expect(flags(await listChannels(deps, bob))).toEqual([['four', true, false, false]]);
    expect(flags([await getChannel(deps, bob, 'four')])).toEqual([['four', true, false, false]]);
  });

  it('refuses a plan without API publishing, an unknown channel and a channel the caller is no member of', async () => {
    await createTestChannel(t, 'ana', 'news');
    const rita = await principalOf('rita', 'reader');
    const bob = await principalOf('bob');
    await expectError(listChannels(deps, rita), 'PLAN_NO_API_PUBLISHING');
    await expectError(getChannel(deps, ana, 'nope'), 'CHANNEL_NOT_FOUND', /No channel with the slug "nope" exists\. List your channels with GET \/api\/v1\/channels\./);
    await expectError(getChannel(deps, bob, 'news'), 'CHANNEL_ACCESS_DENIED', /"bob" has no access to the channel "news"/);
    expect(await listChannels(deps, bob)).toEqual([]);
  });
});

describe('updateChannel', () => {
  let channelId: number;
  beforeEach(async () => {
    channelId = (await create(ana, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News', description: 'Daily.' }, { language: 'fr', title: 'Nouvelles' }] })).id;
    t.clock.advance(60_000);
  });

  it('merges translations by language, keeping the ones not sent, and announces the change', async () => {
    const view = await update(ana, 'news', { translations: [{ language: 'fr', title: 'Les nouvelles', description: 'Chaque jour.' }, { language: 'de', title: 'Nachrichten' }] });
    expect(view.translations).toEqual([
      { language: 'de', title: 'Nachrichten', description: null },
      { language: 'en', title: 'News', description: 'Daily.' },
      { language: 'fr', title: 'Les nouvelles', description: 'Chaque jour.' },
    ]);
    expect(view).toMatchObject({ title: 'News', updated_at: '2026-11-22T12:01:00.000Z' });
    expect(await channelEvents(channelId)).toEqual(['channel_changed', 'channel_changed']);
  });

  it.each([
    { name: 'a title alone keeps the description', item: { language: 'en', title: 'Headlines' }, expected: { language: 'en', title: 'Headlines', description: 'Daily.' } },
    { name: 'a description alone keeps the title', item: { language: 'en', description: 'Hourly.' }, expected: { language: 'en', title: 'News', description: 'Hourly.' } },
    { name: 'an explicit null clears the description', item: { language: 'en', description: null }, expected: { language: 'en', title: 'News', description: null } },
    { name: 'the language alone changes nothing', item: { language: 'en' }, expected: { language: 'en', title: 'News', description: 'Daily.' } },
  ])('merges a translation item field by field (issue 34: an omitted description was erased): $name', async ({ item, expected }) => {
    const view = await update(ana, 'news', { translations: [item] });
    expect(view.translations.find((t) => t.language === 'en')).toEqual(expected);
  });

  it('refuses a new language without a title, naming the item, and changes nothing', async () => {
    const error = await expectError(update(ana, 'news', { translations: [{ language: 'fr', description: 'Ok.' }, { language: 'it', description: 'Notizie.' }] }), 'VALIDATION_FAILED');
    expect(error.details).toEqual({ fields: { 'translations.1.title': expect.stringMatching(/^Required for "it", a language the channel does not have yet\. Give its title/) } });
    expect((await getChannel(deps, ana, 'news')).translations.map((t) => t.language)).toEqual(['en', 'fr']);
  });

  it.each([
    { name: 'title alone keeps the description', body: { title: 'Headlines' }, expected: { title: 'Headlines', description: 'Daily.' } },
    { name: 'description alone keeps the title', body: { description: 'Hourly.' }, expected: { title: 'News', description: 'Hourly.' } },
    { name: 'a null description clears it', body: { description: null }, expected: { title: 'News', description: null } },
  ])('changes the default language\u2019s translation: $name', async ({ body, expected }) => {
    const view = await update(ana, 'news', body);
    expect(view).toMatchObject(expected);
    expect(view.translations.find((tr) => tr.language === 'en')).toMatchObject(expected);
    expect(view.translations.find((tr) => tr.language === 'fr')).toEqual({ language: 'fr', title: 'Nouvelles', description: null });
  });

  it('switches the default language to one it has or gets in the same request, and refuses one it lacks', async () => {
    expect(await update(ana, 'news', { default_language: 'fr', title: 'Infos' })).toMatchObject({ default_language: 'fr', title: 'Infos' });
    expect(await update(ana, 'news', { default_language: 'es', translations: [{ language: 'es', title: 'Noticias' }] })).toMatchObject({ default_language: 'es', title: 'Noticias' });
    const error = await expectError(update(ana, 'news', { default_language: 'it' }), 'VALIDATION_FAILED');
    expect(error.details).toEqual({ fields: { default_language: 'The channel has no translation in "it". Add one in translations in the same request.' } });
  });

  it('changes status and switches, and leaves omitted ones as they were', async () => {
    await update(ana, 'news', { status: 'hidden', watermark_enabled: true });
    const view = await update(ana, 'news', { homepage_enabled: false });
    expect(view).toMatchObject({ status: 'hidden', watermark_enabled: true, homepage_enabled: false });
  });

  it('refuses a title the moderation rules block, changing nothing', async () => {
    await expectError(update(ana, 'news', { title: 'spamword' }), 'CONTENT_REFUSED', /"title"/);
    expect((await getChannel(deps, ana, 'news')).title).toBe('News');
    expect(await channelEvents(channelId)).toEqual(['channel_changed']);
  });

  it('lets an editor with can_manage_channel update, and refuses one without it', async () => {
    const bob = await principalOf('bob');
    const cy = await principalOf('cy');
    await inviteEditor(t, { channel: 'news', account: 'bob', manage: true });
    await inviteEditor(t, { channel: 'news', account: 'cy' });
    expect((await update(bob, 'news', { title: 'By Bob' })).title).toBe('By Bob');
    await expectError(update(cy, 'news', { title: 'By Cy' }), 'CHANNEL_PERMISSION_DENIED', /may not change the settings of the channel "news"\. Ask its owner for the can_manage_channel permission\./);
  });

  it('refuses to update a read-only channel, even its owner', async () => {
    for (const slug of ['two', 'three', 'four']) await create(ana, titled(slug, { slug }));
    await changePlan(t, { account: 'ana', plan: 'free' });
    const anaFree = await principalOf('ana');
    await expectError(update(anaFree, 'four', { title: 'Again' }), 'CHANNEL_READ_ONLY', /"four" is read-only.*\(3\)\. Upgrade the owner's plan/);
    expect((await update(anaFree, 'news', { title: 'Still mine' })).title).toBe('Still mine');
  });
});
