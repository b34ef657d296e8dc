/**
 * The publishing rules of publishing-api.md over real HTTP: statuses,
 * publish_translations, scheduling, homepage settings, access and plans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateAccount, findAccountByName } from '../../server/store/account.repository.ts';
import { findChannelBySlug, upsertMembership } from '../../server/store/channel.repository.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
let proKey: string;

const en = (title: string, body = '## Part\n\nText.') => ({ language: 'en', title, content_markdown: body });
const fr = (title: string, body = '## Partie\n\nTexte.') => ({ language: 'fr', title, content_markdown: body });

async function channel(slug: string, k = key) {
  const res = await t.request('POST', '/api/v1/channels', {
    key: k,
    body: { slug, default_language: 'en', translations: [{ language: 'en', title: `Channel ${slug}` }, { language: 'fr', title: `Chaîne ${slug}` }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function article(ch: string, body: Record<string, unknown>, k = key) {
  return t.request('POST', `/api/v1/channels/${ch}/pages`, { key: k, body });
}

beforeAll(async () => {
  t = await startTestService();
  key = await t.key('writer', 'free');
  proKey = await t.key('scheduler', 'pro');
  await channel('rules');
  await channel('later', proKey);
});
afterAll(async () => t?.stop());

describe('create and update', () => {
  it('creates a draft by default, and POST with an existing slug updates it (200)', async () => {
    const created = await article('rules', { slug: 'first', default_language: 'en', translations: [en('First')] });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'draft', moderation: 'none', homepage_mode: 'inherit', project: 'rules' });
    expect(created.json.url).toBe('http://pressroom.test/rules/first?lang=en');
    expect(created.json.edit_url).toBe(`http://pressroom.test/dashboard/channels/rules/pages/${created.json.id}`);

    const updated = await article('rules', { slug: 'first', default_language: 'en', homepage_mode: 'hide', translations: [en('First, again')] });
    expect(updated.status).toBe(200);
    expect(updated.json.id).toBe(created.json.id);
    expect(updated.json.translations[0].title).toBe('First, again');
    expect(updated.json.homepage_mode).toBe('hide');

    // Omitting homepage_mode on update keeps it (rule 5).
    const again = await article('rules', { slug: 'first', default_language: 'en', translations: [en('First, third')] });
    expect(again.json.homepage_mode).toBe('hide');
  });

  it('publishing with several translations publishes all of them unless publish_translations is false (rule 2)', async () => {
    const all = await article('rules', { slug: 'multi', default_language: 'en', status: 'published', translations: [en('Multi'), fr('Multi FR')] });
    expect(all.json.status).toBe('moderation_review');
    expect(all.json.translation_status_summary.moderation_review).toEqual(['en', 'fr']);
    expect(all.json.translation_status_summary.all_translations_public_or_pending).toBe(true);

    const one = await article('rules', {
      slug: 'multi-primary',
      default_language: 'en',
      status: 'published',
      publish_translations: false,
      translations: [en('Primary only'), fr('Brouillon')],
    });
    expect(one.json.translation_status_summary).toMatchObject({ moderation_review: ['en'], draft: ['fr'], draft_translation_languages: ['fr'] });
    expect(one.json.translations.map((x: { status: string }) => x.status)).toEqual(['moderation_review', 'draft']);
  });

  it('reports body fixes as warnings', async () => {
    const res = await article('rules', {
      slug: 'warned',
      default_language: 'en',
      translations: [{ language: 'en', title: 'Warned', content_markdown: '# Big heading\n\nBody.' }],
    });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'BODY_H1_DEMOTED', field: 'translations.0.content_markdown' })]),
    );
    expect(res.json.translations[0].content_markdown).toContain('## Big heading');
  });

  it('accepts an HTML body and stores it as Markdown', async () => {
    const res = await article('rules', {
      slug: 'from-html',
      default_language: 'en',
      translations: [{ language: 'en', title: 'From HTML', content_html: '<h2>Part</h2><p>See <a href="./first">first</a>.</p><script>alert(1)</script>' }],
    });
    expect(res.status).toBe(201);
    expect(res.json.translations[0].content_markdown).toContain('[first](./first)');
    expect(res.json.translations[0].content_html).not.toContain('<script');
  });
});

describe('status changes', () => {
  it('requires publish_translations on a multilingual article (rule 3)', async () => {
    await article('rules', { slug: 'needs-flag', default_language: 'en', translations: [en('Flag'), fr('Drapeau')] });
    const res = await t.request('PATCH', '/api/v1/channels/rules/pages/needs-flag/status', { key, body: { status: 'published' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.error.details.fields)).toEqual(['publish_translations']);

    const ok = await t.request('PATCH', '/api/v1/channels/rules/pages/needs-flag/status', {
      key,
      body: { status: 'published', publish_translations: false },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.translation_status_summary).toMatchObject({ moderation_review: ['en'], draft: ['fr'] });
  });

  it('never publishes a translation before the primary language (rule 1)', async () => {
    await article('rules', { slug: 'primary-draft', default_language: 'en', translations: [en('Draft primary')] });
    const res = await t.request('PUT', '/api/v1/channels/rules/pages/primary-draft/translations/fr', {
      key,
      body: { title: 'Traduction', content_markdown: 'Texte.', status: 'published' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.status).toMatch(/before the primary language/);

    const create = await article('rules', {
      slug: 'secondary-only',
      default_language: 'en',
      translations: [en('Primary'), { ...fr('Secondaire'), status: 'published' }],
    });
    expect(create.status).toBe(422);
    expect(create.json.error.details.fields['translations.1.status']).toMatch(/before the primary language/);
  });

  it('PUT adds a translation as a draft and updates it in place', async () => {
    await article('rules', { slug: 'put-target', default_language: 'en', translations: [en('Target')] });
    const created = await t.request('PUT', '/api/v1/channels/rules/pages/put-target/translations/fr', {
      key,
      body: { title: 'Cible', content_markdown: 'Texte.' },
    });
    expect(created.status).toBe(201);
    expect(created.json.translations.map((x: { language: string; status: string }) => `${x.language}:${x.status}`)).toEqual(['en:draft', 'fr:draft']);
    const updated = await t.request('PUT', '/api/v1/channels/rules/pages/put-target/translations/fr', {
      key,
      body: { title: 'Cible 2', content_markdown: 'Texte 2.' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.translations[1].title).toBe('Cible 2');
  });

  it('rejects moderation_review as a requested status (rule 2 of the state table)', async () => {
    const res = await t.request('PATCH', '/api/v1/channels/rules/pages/first/status', { key, body: { status: 'moderation_review' } });
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.status).toMatch(/cannot be requested/);
  });

  it('archives an article and brings it back as a draft', async () => {
    await article('rules', { slug: 'to-archive', default_language: 'en', status: 'published', translations: [en('Archive me')] });
    const archived = await t.request('PATCH', '/api/v1/channels/rules/pages/to-archive/status', { key, body: { status: 'archived' } });
    expect(archived.json.status).toBe('archived');
    expect(archived.json.translations[0].status).toBe('draft');
    const listed = await t.request('GET', '/api/v1/channels/rules/pages?status=archived', { key });
    expect(listed.json.pages.map((p: { slug: string }) => p.slug)).toEqual(['to-archive']);
    const back = await t.request('PATCH', '/api/v1/channels/rules/pages/to-archive/status', { key, body: { status: 'draft' } });
    expect(back.json.status).toBe('draft');
  });

  it('PATCH settings changes homepage_mode only', async () => {
    const before = await t.request('GET', '/api/v1/channels/rules/pages/multi', { key });
    const res = await t.request('PATCH', `/api/v1/channels/rules/pages/${before.json.id}/settings`, { key, body: { homepage_mode: 'allow' } });
    expect(res.status).toBe(200);
    expect(res.json.homepage_mode).toBe('allow');
    expect(res.json.status).toBe(before.json.status);
    expect(res.json.translations).toEqual(before.json.translations);
    const missing = await t.request('PATCH', '/api/v1/channels/rules/pages/multi/settings', { key, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json.error.details.fields.homepage_mode).toMatch(/Required/);
  });
});

describe('scheduling', () => {
  const at = '2026-11-25T08:00:00+01:00';

  it('needs a plan with scheduling (403 on free)', async () => {
    const res = await article('rules', { slug: 'sched-free', default_language: 'en', status: 'scheduled', scheduled_at: at, translations: [en('Later')] });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('PLAN_NO_SCHEDULING');
  });

  it('accepts a future time with an offset and normalises it to UTC', async () => {
    const res = await article('later', { slug: 'sched', default_language: 'en', status: 'published', scheduled_at: at, translations: [en('Later')] }, proKey);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'moderation_review', scheduled_at: '2026-11-25T07:00:00.000Z', scheduled_paused: false });
  });

  it('counts the excerpt and title limits in characters (code points): 320 emoji fit, 321 do not', async () => {
    const fits = await article('later', { slug: 'emoji-fits', default_language: 'en', translations: [{ ...en('😀'.repeat(300)), excerpt: '😀'.repeat(320) }] }, proKey);
    expect(fits.status, fits.text).toBe(201);
    const over = await article('later', { slug: 'emoji-over', default_language: 'en', translations: [{ ...en('Title'), excerpt: '😀'.repeat(321) }] }, proKey);
    expect(over.status).toBe(422);
    expect(JSON.stringify(over.json.error.details.fields)).toMatch(/at most 320 characters/);
  });

  it('accepts the ISO 8601 hour-only offset (+01) and normalises it to UTC', async () => {
    const res = await article('later', { slug: 'sched-hour', default_language: 'en', status: 'scheduled', scheduled_at: '2026-11-24T10:00:00+01', translations: [en('Later')] }, proKey);
    expect(res.status, res.text).toBe(201);
    expect(res.json.scheduled_at).toBe('2026-11-24T09:00:00.000Z');
  });

  it.each([
    ['no time zone', '2026-11-25T08:00:00', /time zone/],
    ['in the past', '2026-11-20T08:00:00Z', /not in the future/],
    ['not a date', 'tomorrow', /ISO 8601/],
  ])('rejects a scheduled_at %s (422)', async (_name, value, message) => {
    const res = await article('later', { slug: 'sched-bad', default_language: 'en', status: 'scheduled', scheduled_at: value, translations: [en('Bad')] }, proKey);
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.scheduled_at).toMatch(message);
  });

  it.each([
    ['basic format', '20261124T100000Z'],
    ['a decimal comma', '2026-11-24T10:00:00,0Z'],
    ['a week date', '2026-W48-2T10:00Z'],
    ['an ordinal date', '2026-328T11:00+01:00'],
  ])('accepts a scheduled_at in %s, stored in UTC (issue 34)', async (name, value) => {
    const slug = `sched-${name.replace(/\W+/g, '-')}`;
    const res = await article('later', { slug, default_language: 'en', status: 'scheduled', scheduled_at: value, translations: [en('Later')] }, proKey);
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.scheduled_at).toBe('2026-11-24T10:00:00.000Z');
  });

  it('requires scheduled_at with status scheduled', async () => {
    const res = await article('later', { slug: 'sched-missing', default_language: 'en', status: 'scheduled', translations: [en('Bad')] }, proKey);
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.scheduled_at).toMatch(/Required/);
  });
});

describe('listing', () => {
  it('walks every page with the cursor, without duplicates, while articles are added', async () => {
    await channel('paged');
    for (let i = 1; i <= 5; i++) await article('paged', { slug: `p${i}`, default_language: 'en', translations: [en(`P${i}`)] });
    const seen: string[] = [];
    let path = '/api/v1/channels/paged/pages?limit=2';
    for (let guard = 0; guard < 10; guard++) {
      const res = await t.request('GET', path, { key });
      expect(res.status).toBe(200);
      seen.push(...res.json.pages.map((p: { slug: string }) => p.slug));
      expect(res.json.pages[0]).not.toHaveProperty('translations');
      if (guard === 0) await article('paged', { slug: 'p6', default_language: 'en', translations: [en('P6')] });
      if (!res.json.pagination.has_more) break;
      path = `/api/v1/channels/paged/pages?limit=2&cursor=${encodeURIComponent(res.json.pagination.next_cursor)}`;
    }
    expect(seen).toEqual(['p5', 'p4', 'p3', 'p2', 'p1']);
  });

  it('refuses an edited cursor (a character appended, removed or changed) with 422 naming cursor', async () => {
    const first = await t.request('GET', '/api/v1/channels/paged/pages?limit=2', { key });
    const cursor: string = first.json.pagination.next_cursor;
    for (const edited of [`${cursor}A`, `${cursor}!`, cursor.slice(0, -1), `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`]) {
      const res = await t.request('GET', `/api/v1/channels/paged/pages?limit=2&cursor=${encodeURIComponent(edited)}`, { key });
      expect(res.status, edited).toBe(422);
      expect(res.json.error.details.fields.cursor).toMatch(/next_cursor/);
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=forged', 'cursor'],
    ['status=published&cursor=' + 'x'.repeat(10), 'cursor'],
    ['unknown=1', 'unknown'],
    // A control character in the search: 422 on both stores (Postgres cannot compare text holding U+0000).
    ['q=a%00b', 'q'],
    ['q=%07', 'q'],
  ])('rejects %s with 422 naming the parameter', async (query, field) => {
    const res = await t.request('GET', `/api/v1/channels/paged/pages?${query}`, { key });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.error.details.fields)).toContain(field);
  });
});

describe('access', () => {
  it('accepts the key in X-API-Key and serves the legacy /projects path', async () => {
    const res = await t.request('GET', '/api/v1/projects/rules/pages/first', { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(res.json.slug).toBe('first');
  });

  it('lets an invited editor write articles but not manage the channel', async () => {
    const editorKey = await t.key('editor');
    const editor = (await findAccountByName(t.service.db, 'editor'))!;
    const ch = (await findChannelBySlug(t.service.db, 'rules'))!;
    await upsertMembership(t.service.db, {
      channel_id: ch.id,
      account_id: editor.id,
      role: 'editor',
      can_write_articles: 1,
      can_manage_channel: 0,
      created_at: '2026-11-22T12:00:00.000Z',
    });
    const list = await t.request('GET', '/api/v1/channels', { key: editorKey });
    expect(list.json.channels).toEqual([
      expect.objectContaining({ slug: 'rules', role: 'editor', can_write_articles: true, can_manage_channel: false }),
    ]);
    const write = await article('rules', { slug: 'by-editor', default_language: 'en', translations: [en('Editor')] }, editorKey);
    expect(write.status).toBe(201);
    const manage = await t.request('PATCH', '/api/v1/channels/rules', { key: editorKey, body: { homepage_enabled: false } });
    expect(manage.status).toBe(403);
    expect(manage.json.error.code).toBe('CHANNEL_PERMISSION_DENIED');
  });

  it('makes channels past the plan limit read-only after a downgrade', async () => {
    const ownerKey = await t.key('downgraded', 'pro');
    for (const slug of ['d1', 'd2', 'd3', 'd4']) await channel(slug, ownerKey);
    const owner = (await findAccountByName(t.service.db, 'downgraded'))!;
    await updateAccount(t.service.db, owner.id, { plan: 'free' });

    const list = await t.request('GET', '/api/v1/channels', { key: ownerKey });
    const d4 = list.json.channels.find((c: { slug: string }) => c.slug === 'd4');
    expect(d4).toMatchObject({ read_only: true, can_write_articles: false, can_manage_channel: false });
    const blocked = await article('d4', { slug: 'x', default_language: 'en', translations: [en('X')] }, ownerKey);
    expect(blocked.status).toBe(403);
    expect(blocked.json.error.code).toBe('CHANNEL_READ_ONLY');
    const allowed = await article('d1', { slug: 'x', default_language: 'en', translations: [en('X')] }, ownerKey);
    expect(allowed.status).toBe(201);
    const more = await t.request('POST', '/api/v1/channels', {
      key: ownerKey,
      body: { default_language: 'en', translations: [{ language: 'en', title: 'One more' }] },
    });
    expect(more.status).toBe(403);
    expect(more.json.error.code).toBe('CHANNEL_LIMIT_REACHED');
  });

  it('generates unique slugs from the title', async () => {
    const k = await t.key('slugger', 'pro');
    const make = () => t.request('POST', '/api/v1/channels', { key: k, body: { default_language: 'fr', translations: [{ language: 'fr', title: 'Ça va, Zoë?' }] } });
    expect((await make()).json.slug).toBe('ca-va-zoe');
    expect((await make()).json.slug).toBe('ca-va-zoe-2');
    const taken = await t.request('POST', '/api/v1/channels', { key: k, body: { slug: 'ca-va-zoe', default_language: 'fr', translations: [{ language: 'fr', title: 'X' }] } });
    expect(taken.status).toBe(422);
    expect(taken.json.error.details.fields.slug).toMatch(/already taken/);
    const reserved = await t.request('POST', '/api/v1/channels', { key: k, body: { slug: 'api', default_language: 'fr', translations: [{ language: 'fr', title: 'X' }] } });
    expect(reserved.json.error.details.fields.slug).toMatch(/reserved/);
  });
});
