/**
 * The publishing API against its OpenAPI document: starts the real service,
 * calls every operation (the legacy /projects paths too) and provokes every
 * documented status, and validates each real response against
 * docs/openapi/publishing-api.yaml. The last test fails when a documented
 * (method, path, status) was never exercised, so the document cannot promise
 * more than the tests have seen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ARTICLE_STATUSES, HOMEPAGE_MODES, MODERATION_STATES, TRANSLATION_STATUSES } from '../../server/domain/article/article-status.ts';
import { BODY_WARNING_CODES } from '../../server/domain/body/index.ts';
import { SUMMARY_WITHOUT_PARAGRAPH } from '../../server/domain/article/article-bodies.ts';
import { WITHDRAWN_UNTIL_SCHEDULED } from '../../server/domain/article/schedule-warning.ts';
import { EDGE_DELIVERY_DELAYED } from '../../server/domain/article/reported-status.ts';
import { CHANNEL_STATUSES } from '../../server/domain/channel/channel.schema.ts';
import { ERROR_CATALOGUE } from '../../server/domain/errors.ts';
import { RESERVED_CHANNEL_SLUGS, SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../server/domain/slug.ts';
import { findAccountByName } from '../../server/store/account.repository.ts';
import { findChannelBySlug, upsertMembership } from '../../server/store/channel.repository.ts';
import { createOpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC_PATH = path.join(ROOT, 'docs/openapi/publishing-api.yaml');
const api = createOpenApiValidator(DOC_PATH);

type Response = Awaited<ReturnType<TestService['request']>>;
type Params = Record<string, string | number>;
interface CallOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Every `METHOD path status` seen, for the coverage check at the end. */
const exercised = new Set<string>();

/**
 * Calls `/api/v1{template}` with `params` filled in, validates the response
 * against the document, and records the (method, path, status).
 */
async function call(svc: TestService, method: string, template: string, params: Params = {}, options: CallOptions = {}): Promise<Response> {
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`No value for {${name}} in ${template}.`);
    return encodeURIComponent(String(params[name]));
  });
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const res = await svc.request(method, `/api/v1${filled}${query}`, options);
  expect(res.headers.get('content-type') ?? '', `${method} ${filled}: JSON response`).toMatch(/^application\/json\b/);
  api.assertResponse(method, template, res.status, res.json);
  if (res.status < 300 && options.body !== undefined && typeof options.body !== 'string') {
    expect(api.validateRequestBody(method, template, options.body), 'a body the service accepted must be valid per the document').toEqual([]);
  }
  exercised.add(`${method} ${template} ${res.status}`);
  return res;
}

/** Asserts an error response's status and code. */
function expectError(res: Response, status: number, code: keyof typeof ERROR_CATALOGUE): void {
  expect({ status: res.status, code: res.json?.error?.code }, res.text).toEqual({ status, code });
  expect(ERROR_CATALOGUE[code].status).toBe(status);
}

const CHANNELS = '/channels';
const CHANNEL = '/channels/{channel_slug}';
type Base = 'channels' | 'projects';
const pagePaths = (base: Base) => ({
  pages: `/${base}/{channel_slug}/pages`,
  page: `/${base}/{channel_slug}/pages/{page_slug_or_id}`,
  translation: `/${base}/{channel_slug}/pages/{page_slug_or_id}/translations/{language}`,
  status: `/${base}/{channel_slug}/pages/{page_slug_or_id}/status`,
  settings: `/${base}/{channel_slug}/pages/{page_slug_or_id}/settings`,
});
const BASES: Base[] = ['channels', 'projects'];

const channelBody = (title: string, extra: Record<string, unknown> = {}) => ({
  default_language: 'en',
  translations: [{ language: 'en', title }],
  ...extra,
});
const articleBody = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  default_language: 'en',
  translations: [{ language: 'en', title: `Title of ${slug}`, content_markdown: '## Section\n\nBody text.' }],
  ...extra,
});

/** One operation with a request that passes body validation, for the error sweeps. */
interface Op {
  method: string;
  path: string;
  params: Params;
  body?: unknown;
  channelScoped: boolean;
  articleScoped: boolean;
  /** Needs can_write_articles or can_manage_channel. */
  write: boolean;
}

/** Every operation that needs a key, aimed at `channel` / `page`. */
function operations(channel: string, page: string): Op[] {
  const ops: Op[] = [
    { method: 'GET', path: CHANNELS, params: {}, channelScoped: false, articleScoped: false, write: false },
    { method: 'POST', path: CHANNELS, params: {}, body: channelBody('Sweep'), channelScoped: false, articleScoped: false, write: false },
    { method: 'GET', path: CHANNEL, params: { channel_slug: channel }, channelScoped: true, articleScoped: false, write: false },
    { method: 'PATCH', path: CHANNEL, params: { channel_slug: channel }, body: { title: 'Renamed' }, channelScoped: true, articleScoped: false, write: true },
  ];
  for (const base of BASES) {
    const p = pagePaths(base);
    const params = { channel_slug: channel, page_slug_or_id: page, language: 'fr' };
    ops.push(
      { method: 'POST', path: p.pages, params, body: articleBody('sweep'), channelScoped: true, articleScoped: false, write: true },
      { method: 'GET', path: p.pages, params, channelScoped: true, articleScoped: false, write: false },
      { method: 'GET', path: p.page, params, channelScoped: true, articleScoped: true, write: false },
      {
        method: 'PUT',
        path: p.translation,
        params,
        body: { title: 'Titre', content_markdown: 'Texte.' },
        channelScoped: true,
        articleScoped: true,
        write: true,
      },
      { method: 'PATCH', path: p.status, params, body: { status: 'draft', publish_translations: true }, channelScoped: true, articleScoped: true, write: true },
      { method: 'PATCH', path: p.settings, params, body: { homepage_mode: 'allow' }, channelScoped: true, articleScoped: true, write: true },
    );
  }
  return ops;
}

let t: TestService;
const keys = { ana: '', bob: '', rita: '', ed: '', lim: '', olga: '' };

beforeAll(async () => {
  t = await startTestService();
  keys.ana = await t.key('ana', 'pro');
  keys.bob = await t.key('bob', 'free');
  keys.rita = await t.key('rita', 'reader');
  keys.ed = await t.key('ed', 'free');
  keys.lim = await t.key('lim', 'free');
  keys.olga = await t.key('olga', 'pro');
});
afterAll(async () => t?.stop());

describe('the document', () => {
  const doc = api.document as any;

  it('is the one the service serves at /api/v1/openapi.json, without a key', async () => {
    const res = await t.request('GET', '/api/v1/openapi.json');
    api.assertResponse('GET', '/openapi.json', res.status, res.json);
    exercised.add(`GET /openapi.json ${res.status}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(YAML.parse(fs.readFileSync(DOC_PATH, 'utf8')));
  });

  it('names the base path in its server and documents both key schemes', () => {
    expect(doc.servers[0].url).toBe('http://127.0.0.1:4321/api/v1');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('gives every operation a unique operationId; legacy operations are deprecated copies', () => {
    const ids = api.documentedResponses().map((r) => r.operationId);
    const unique = new Set(ids);
    const perOperation = new Map(api.documentedResponses().map((r) => [`${r.method} ${r.path}`, r.operationId]));
    expect(unique.size).toBe(perOperation.size);
    for (const [pathTemplate, item] of Object.entries<any>(doc.paths)) {
      if (!pathTemplate.startsWith('/projects/')) continue;
      const current = doc.paths[pathTemplate.replace(/^\/projects\//, '/channels/')];
      expect(current, `${pathTemplate} has a /channels twin`).toBeDefined();
      for (const method of ['get', 'post', 'put', 'patch']) {
        if (!item[method]) continue;
        expect(item[method].deprecated, `${method} ${pathTemplate}`).toBe(true);
        expect(item[method].responses).toEqual(current[method].responses);
        expect(item[method].requestBody).toEqual(current[method].requestBody);
        expect(item[method].parameters).toEqual(current[method].parameters);
      }
    }
  });

  it('mirrors the enums of the implementation', () => {
    const schemas = doc.components.schemas;
    expect(schemas.WarningCode.enum).toEqual([...BODY_WARNING_CODES, WITHDRAWN_UNTIL_SCHEDULED, SUMMARY_WITHOUT_PARAGRAPH, EDGE_DELIVERY_DELAYED]);
    for (const code of schemas.WarningCode.enum) expect(schemas.WarningCode.description).toContain(code);
    expect(schemas.ArticleStatus.enum).toEqual([...ARTICLE_STATUSES]);
    expect(schemas.TranslationStatus.enum).toEqual([...TRANSLATION_STATUSES]);
    expect(schemas.HomepageMode.enum).toEqual([...HOMEPAGE_MODES]);
    expect(schemas.Moderation.enum).toEqual([...MODERATION_STATES]);
    expect(schemas.ChannelStatus.enum).toEqual([...CHANNEL_STATUSES]);
    expect(schemas.Slug.pattern).toBe(SLUG_PATTERN.source);
    expect(schemas.Slug.maxLength).toBe(SLUG_MAX_LENGTH);
    for (const reserved of RESERVED_CHANNEL_SLUGS) expect(schemas.Slug.description).toContain(`\`${reserved}\``);
    expect(schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  it('is enforced by the validator: undocumented fields, statuses, codes and operations are errors', () => {
    const list = { schema_version: '1.0', channels: [] };
    expect(api.validateResponse('GET', CHANNELS, 200, list)).toEqual([]);
    expect(api.validateResponse('GET', CHANNELS, 200, { ...list, extra: true }).join()).toContain('undocumented property "extra"');
    expect(api.validateResponse('GET', CHANNELS, 200, { channels: [] }).join()).toContain('"schema_version"');
    expect(api.validateResponse('GET', CHANNELS, 418, list).join()).toContain('status 418 is not documented');
    const wrongCode = { schema_version: '1.0', error: { code: 'NOT_FOUND', message: 'x' } };
    expect(api.validateResponse('GET', CHANNELS, 401, wrongCode).join()).toContain('must be one of');
    expect(api.validateResponse('DELETE', CHANNEL, 200, {}).join()).toContain('not documented');
    expect(api.validateResponse('GET', '/channels/{channel_slug}/media', 200, {}).join()).toContain('not documented');
    expect(api.validateResponse('GET', '/channels/{channel_slug}/labels', 200, {}).join()).toContain('not documented');
  });

  it('documents media upload on the current and the legacy path (its responses are exercised in media.test.ts)', () => {
    expect(Object.keys(doc.paths).filter((p) => p.includes('media')).sort()).toEqual(['/channels/{channel_slug}/media', '/projects/{channel_slug}/media']);
  });
});

describe('channels', () => {
  let generated = '';

  it('lists no channels for a new account', async () => {
    const res = await call(t, 'GET', CHANNELS, {}, { key: keys.ana });
    expect(res.status).toBe(200);
    expect(res.json.channels).toEqual([]);
  });

  it('creates a channel without a slug: the slug comes from the title', async () => {
    const res = await call(t, 'POST', CHANNELS, {}, {
      key: keys.ana,
      body: { default_language: 'en', translations: [{ language: 'en', title: 'Tech News', description: 'Daily.' }, { language: 'fr', title: 'Actualités' }] },
    });
    expect(res.status, res.text).toBe(201);
    generated = res.json.slug;
    expect(generated).toBe('tech-news');
    expect(res.headers.get('location')).toBe('/api/v1/channels/tech-news');
    expect(res.json).toMatchObject({ status: 'active', homepage_enabled: true, role: 'owner', can_write_articles: true, can_manage_channel: true, read_only: false });
    expect(res.json.url).toBe(`${t.config.publicUrl}/tech-news/`);
  });

  it('creates a channel with a slug, hidden and off the homepage', async () => {
    const res = await call(t, 'POST', CHANNELS, {}, {
      key: keys.ana,
      body: channelBody('Desk', { slug: 'desk', status: 'hidden', homepage_enabled: false, watermark_enabled: true }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ slug: 'desk', status: 'hidden', homepage_enabled: false, watermark_enabled: true });
  });

  it('lists the channels oldest first with permission flags', async () => {
    const res = await call(t, 'GET', CHANNELS, {}, { key: keys.ana });
    expect(res.json.channels.map((c: { slug: string }) => c.slug)).toEqual(['tech-news', 'desk']);
  });

  it('accepts the key in the X-API-Key header too', async () => {
    const res = await call(t, 'GET', CHANNELS, {}, { headers: { 'x-api-key': keys.ana } });
    expect(res.status).toBe(200);
  });

  it('reads one channel', async () => {
    const res = await call(t, 'GET', CHANNEL, { channel_slug: 'desk' }, { key: keys.ana });
    expect(res.status).toBe(200);
    expect(res.json.title).toBe('Desk');
  });

  it('updates a channel; omitted fields keep their value', async () => {
    const res = await call(t, 'PATCH', CHANNEL, { channel_slug: 'desk' }, {
      key: keys.ana,
      body: { title: 'The Desk', description: 'News desk.', status: 'active', translations: [{ language: 'de', title: 'Der Tisch' }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ title: 'The Desk', description: 'News desk.', status: 'active', homepage_enabled: false });
    expect(res.json.translations.map((tr: { language: string }) => tr.language).sort()).toEqual(['de', 'en']);
  });

  it('422 names every missing field of a create', async () => {
    const res = await call(t, 'POST', CHANNELS, {}, { key: keys.ana, body: {} });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(Object.keys(res.json.error.details.fields).sort()).toEqual(['default_language', 'translations']);
  });

  it('422 for a reserved or taken slug', async () => {
    const reserved = await call(t, 'POST', CHANNELS, {}, { key: keys.ana, body: channelBody('X', { slug: 'api' }) });
    expectError(reserved, 422, 'VALIDATION_FAILED');
    expect(reserved.json.error.details.fields).toHaveProperty('slug');
    const taken = await call(t, 'POST', CHANNELS, {}, { key: keys.ana, body: channelBody('X', { slug: 'desk' }) });
    expect(taken.json.error.details.fields).toHaveProperty('slug');
  });

  it('422 when PATCH tries to change the slug', async () => {
    const res = await call(t, 'PATCH', CHANNEL, { channel_slug: 'desk' }, { key: keys.ana, body: { slug: 'other' } });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields).toHaveProperty('slug');
  });

  it('403 CHANNEL_LIMIT_REACHED past the plan limit (free: 3)', async () => {
    for (const title of ['One', 'Two', 'Three']) {
      expect((await call(t, 'POST', CHANNELS, {}, { key: keys.lim, body: channelBody(`Lim ${title}`) })).status).toBe(201);
    }
    expectError(await call(t, 'POST', CHANNELS, {}, { key: keys.lim, body: channelBody('Lim Four') }), 403, 'CHANNEL_LIMIT_REACHED');
  });

  it('a channel past the owner\'s plan limit is read-only: newest first', async () => {
    for (const slug of ['olga-1', 'olga-2', 'olga-3', 'olga-4']) {
      expect((await call(t, 'POST', CHANNELS, {}, { key: keys.olga, body: channelBody(slug, { slug }) })).status).toBe(201);
      // Published before the downgrade: its owner must still be able to take it down (issue 40).
      if (slug === 'olga-4') expect((await call(t, 'POST', pagePaths('channels').pages, { channel_slug: slug }, { key: keys.olga, body: { ...articleBody('shown'), status: 'published' } })).status).toBe(201);
    }
    await t.key('olga', 'free'); // downgrade: the limit drops to 3
    const list = await call(t, 'GET', CHANNELS, {}, { key: keys.olga });
    expect(list.json.channels.map((c: any) => [c.slug, c.read_only, c.can_write_articles, c.can_manage_channel])).toEqual([
      ['olga-1', false, true, true],
      ['olga-2', false, true, true],
      ['olga-3', false, true, true],
      ['olga-4', true, false, false],
    ]);
    expect((await call(t, 'GET', CHANNEL, { channel_slug: 'olga-4' }, { key: keys.olga })).json.read_only).toBe(true);
  });
});

describe.each(BASES)('pages under /%s', (base) => {
  const p = pagePaths(base);
  const channel = `newsroom-${base}`;
  const at = (page: string | number, language = 'en') => ({ channel_slug: channel, page_slug_or_id: page, language });
  let multiId = 0;

  beforeAll(async () => {
    const res = await call(t, 'POST', CHANNELS, {}, { key: keys.ana, body: channelBody(`Newsroom ${base}`, { slug: channel }) });
    expect(res.status, res.text).toBe(201);
  });

  it('creates a draft (201): private, no moderation, url and edit_url forms', async () => {
    const res = await call(t, 'POST', p.pages, at(''), { key: keys.ana, body: articleBody('first-draft', { status: 'draft', author: { name: 'Ana' } }) });
    expect(res.status, res.text).toBe(201);
    const view = res.json;
    expect(view).toMatchObject({ status: 'draft', moderation: 'none', project: channel, homepage_mode: 'inherit', warnings: [], author: { name: 'Ana' } });
    expect(res.headers.get('location')).toBe(`/api/v1/channels/${channel}/pages/${view.id}`);
    expect(view.url).toBe(`${t.config.publicUrl}/${channel}/first-draft?lang=en`);
    expect(view.edit_url).toBe(`${t.config.dashboardUrl}/channels/${channel}/pages/${view.id}`);
    expect(view.translation_status_summary.draft).toEqual(['en']);
  });

  it('creates a published multilingual article: moderation_review, warnings for changed bodies', async () => {
    const res = await call(t, 'POST', p.pages, at(''), {
      key: keys.ana,
      body: {
        slug: 'multi',
        default_language: 'en',
        status: 'published',
        homepage_mode: 'allow',
        translations: [
          { language: 'en', title: 'Multi', excerpt: 'Teaser.', content_markdown: '# Multi\n\n# Part\n\nText \u202E here\u0007, [not a link](javascript:alert(1)) ![a chart](chart.png).', seo_title: 'SEO', seo_description: null },
          { language: 'ar', title: 'متعدد', content_html: '<p dir="sideways">نص</p><script>alert(1)</script><img src="https://example.com/x.webp">' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    multiId = res.json.id;
    expect(res.json.status).toBe('moderation_review');
    expect(res.json.moderation).toBe('pending');
    expect(res.json.translation_status_summary).toMatchObject({ moderation_review: ['en', 'ar'], all_translations_public_or_pending: true });
    // Every code, each translation's in BODY_WARNING_CODES order.
    expect(res.json.warnings.map((w: { code: string }) => w.code).sort()).toEqual([...BODY_WARNING_CODES].sort());
    expect(res.json.warnings.map((w: { field: string }) => w.field)).toEqual([
      'translations.0.content_markdown',
      'translations.0.content_markdown',
      'translations.0.content_markdown',
      'translations.0.content_markdown',
      'translations.0.content_markdown',
      'translations.0.content_markdown',
      'translations.1.content_html',
      'translations.1.content_html',
      'translations.1.content_html',
    ]);
  });

  it('updates the article with an existing slug (200)', async () => {
    const res = await call(t, 'POST', p.pages, at(''), { key: keys.ana, body: articleBody('first-draft', { homepage_mode: 'hide' }) });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ slug: 'first-draft', homepage_mode: 'hide', status: 'draft', author: { name: 'Ana' } });
  });

  it('publish_translations=false on create keeps secondary translations as drafts', async () => {
    const res = await call(t, 'POST', p.pages, at(''), {
      key: keys.ana,
      body: {
        slug: 'primary-only',
        default_language: 'en',
        status: 'published',
        publish_translations: false,
        translations: [
          { language: 'en', title: 'Primary', content_markdown: 'Text.' },
          { language: 'fr', title: 'Secondaire', content_markdown: 'Texte.' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.translation_status_summary).toMatchObject({ moderation_review: ['en'], draft: ['fr'], draft_translation_languages: ['fr'] });
  });

  it('422 with details.fields for invalid article fields', async () => {
    const res = await call(t, 'POST', p.pages, at(''), {
      key: keys.ana,
      body: { slug: 'Not A Slug', default_language: 'en', status: 'moderation_review', extra: 1, translations: [{ language: 'en', title: '', content_markdown: 'x', content_html: '<p>x</p>' }] },
    });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(Object.keys(res.json.error.details.fields)).toEqual(expect.arrayContaining(['slug', 'status', 'extra', 'translations.0.title', 'translations.0.content_html']));
  });

  it('422 when a secondary translation would be published before the primary language', async () => {
    const res = await call(t, 'POST', p.pages, at(''), {
      key: keys.ana,
      body: {
        slug: 'early-secondary',
        default_language: 'en',
        translations: [
          { language: 'en', title: 'Primary', content_markdown: 'Text.' },
          { language: 'fr', title: 'Secondaire', content_markdown: 'Texte.', status: 'published' },
        ],
      },
    });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields).toHaveProperty(['translations.1.status']);
  });

  it('lists pages newest first, filtered by status, and pages through with the cursor', async () => {
    const drafts = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query: { status: 'draft' } });
    expect(drafts.status).toBe(200);
    expect(drafts.json.pages.map((a: { slug: string }) => a.slug)).toEqual(['first-draft']);
    expect(drafts.json.pages[0]).not.toHaveProperty('translations');

    const all = await call(t, 'GET', p.pages, at(''), { key: keys.ana });
    expect(all.json.pagination).toEqual({ limit: 20, next_cursor: null, has_more: false });
    const expected = all.json.pages.map((a: { id: number }) => a.id);
    expect(expected).toEqual([...expected].sort((a: number, b: number) => b - a));

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: '1', ...(cursor !== null && { cursor }) };
      const page = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.pages.map((a: { id: number }) => a.id));
      expect(page.json.pagination.has_more).toBe(page.json.pagination.next_cursor !== null);
      cursor = page.json.pagination.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected);
  });

  it('422 for a bad limit, an unknown filter, an unknown parameter or a forged cursor', async () => {
    const res = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query: { limit: '0', status: 'gone', page: '2' } });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(Object.keys(res.json.error.details.fields).sort()).toEqual(['limit', 'page', 'status']);
    const first = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query: { limit: '1' } });
    const other = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query: { limit: '1', status: 'draft', cursor: first.json.pagination.next_cursor } });
    expect(other.json.error.details.fields).toHaveProperty('cursor');
  });

  it('reads one article by slug and by id', async () => {
    const bySlug = await call(t, 'GET', p.page, at('multi'), { key: keys.ana });
    const byId = await call(t, 'GET', p.page, at(multiId), { key: keys.ana });
    expect(bySlug.status).toBe(200);
    expect(byId.json).toEqual(bySlug.json);
    expect(bySlug.json.translations.map((tr: { language: string }) => tr.language)).toEqual(['en', 'ar']);
    expect(bySlug.json.warnings).toEqual([]);
  });

  it('PUT creates a translation (201, draft) and updates it (200); the path language is canonicalised', async () => {
    const created = await call(t, 'PUT', p.translation, at('multi', 'pt-br'), { key: keys.ana, body: { title: 'Múltiplo', content_markdown: 'Texto.' } });
    expect(created.status, created.text).toBe(201);
    const pt = created.json.translations.find((tr: { language: string }) => tr.language === 'pt-BR');
    expect(pt.status).toBe('draft');
    const updated = await call(t, 'PUT', p.translation, at(multiId, 'pt-BR'), { key: keys.ana, body: { title: 'Múltiplo 2', excerpt: 'Resumo.', content_html: '<p>Texto.</p>' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.translations.find((tr: { language: string }) => tr.language === 'pt-BR').title).toBe('Múltiplo 2');
  });

  it('PUT with If-Match saves only over the version it names, else 412 TRANSLATION_CHANGED and nothing saved', async () => {
    const before = await call(t, 'GET', p.page, at(multiId), { key: keys.ana });
    const version = before.json.translations.find((tr: { language: string }) => tr.language === 'pt-BR').version;
    const saved = await call(t, 'PUT', p.translation, at(multiId, 'pt-BR'), { key: keys.ana, headers: { 'if-match': `"${version}"` }, body: { title: 'Múltiplo 3', content_markdown: 'Texto 3.' } });
    expect(saved.status, saved.text).toBe(200);
    const next = saved.json.translations.find((tr: { language: string }) => tr.language === 'pt-BR').version;
    expect(next).not.toBe(version);
    // A second editor, still on the old version: refused, told the current one.
    const stale = await call(t, 'PUT', p.translation, at(multiId, 'pt-BR'), { key: keys.ana, headers: { 'if-match': `"${version}"` }, body: { title: 'Overwritten', content_markdown: 'Lost.' } });
    expectError(stale, 412, 'TRANSLATION_CHANGED');
    expect(stale.json.error.details).toEqual({ current_version: next });
    const missing = await call(t, 'PUT', p.translation, at(multiId, 'de'), { key: keys.ana, headers: { 'if-match': '*' }, body: { title: 'Neu', content_markdown: 'Text.' } });
    expectError(missing, 412, 'TRANSLATION_CHANGED');
    const after = await call(t, 'GET', p.page, at(multiId), { key: keys.ana });
    expect(after.json.translations.map((tr: { language: string; title: string }) => [tr.language, tr.title])).toEqual(
      before.json.translations.map((tr: { language: string; title: string }) => [tr.language, tr.language === 'pt-BR' ? 'Múltiplo 3' : tr.title]),
    );
  });

  it('PUT 422 for an invalid path language or two bodies', async () => {
    const res = await call(t, 'PUT', p.translation, at('multi', 'not a language'), { key: keys.ana, body: { title: 'x', content_markdown: 'y' } });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields).toHaveProperty('language');
    const both = await call(t, 'PUT', p.translation, at('multi', 'fr'), { key: keys.ana, body: { title: 'x', content_markdown: 'y', content_html: '<p>y</p>' } });
    expect(both.json.error.details.fields).toHaveProperty('content_html');
  });

  it('status change of a multilingual article requires publish_translations', async () => {
    const res = await call(t, 'PATCH', p.status, at('multi'), { key: keys.ana, body: { status: 'draft' } });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.json.error.details.fields).toHaveProperty('publish_translations');
  });

  it('archived withdraws every translation; draft brings it back privately; published resubmits', async () => {
    const archived = await call(t, 'PATCH', p.status, at('multi'), { key: keys.ana, body: { status: 'archived', publish_translations: false } });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.json.status).toBe('archived');
    expect(archived.json.translations.map((tr: { status: string }) => tr.status)).toEqual(['draft', 'draft', 'draft']);
    expect(archived.json.published_at).toBeNull();

    const listed = await call(t, 'GET', p.pages, at(''), { key: keys.ana, query: { status: 'archived' } });
    expect(listed.json.pages.map((a: { id: number }) => a.id)).toEqual([multiId]);

    const draft = await call(t, 'PATCH', p.status, at('multi'), { key: keys.ana, body: { status: 'draft', publish_translations: true } });
    expect(draft.json).toMatchObject({ status: 'draft', moderation: 'none' });

    await call(t, 'PATCH', p.status, at('multi'), { key: keys.ana, body: { status: 'archived', publish_translations: true } });
    const republished = await call(t, 'PATCH', p.status, at(multiId), { key: keys.ana, body: { status: 'published', publish_translations: true, homepage_mode: 'inherit' } });
    expect(republished.json).toMatchObject({ status: 'moderation_review', moderation: 'pending', homepage_mode: 'inherit' });
    expect(republished.json.translation_status_summary.moderation_review).toEqual(['en', 'ar', 'pt-BR']);
  });

  it('archiving clears moderation "pending": nothing waits for moderation any more', async () => {
    await call(t, 'POST', p.pages, at(''), { key: keys.ana, body: { slug: 'to-archive', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Archive', content_markdown: 'Text.' }] } });
    const archived = await call(t, 'PATCH', p.status, at('to-archive'), { key: keys.ana, body: { status: 'archived' } });
    expect(archived.json).toMatchObject({ status: 'archived', moderation: 'none' });
  });

  it('schedules on a pro plan: scheduled_at is normalised to UTC', async () => {
    const res = await call(t, 'PATCH', p.status, at('multi'), {
      key: keys.ana,
      body: { status: 'scheduled', scheduled_at: '2026-12-01T10:00:00+01:00', publish_translations: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ status: 'moderation_review', scheduled_at: '2026-12-01T09:00:00.000Z', scheduled_paused: false, scheduled_pause_reason: null });
    expect(res.json.translations.map((tr: { scheduled_at: string }) => tr.scheduled_at)).toEqual(Array(3).fill('2026-12-01T09:00:00.000Z'));
  });

  it('422 for a scheduled_at in the past or without a time zone', async () => {
    const past = await call(t, 'PATCH', p.status, at('first-draft'), { key: keys.ana, body: { status: 'scheduled', scheduled_at: '2020-01-01T00:00:00Z' } });
    expectError(past, 422, 'VALIDATION_FAILED');
    expect(past.json.error.details.fields).toHaveProperty('scheduled_at');
    const local = await call(t, 'PATCH', p.status, at('first-draft'), { key: keys.ana, body: { status: 'scheduled', scheduled_at: '2027-01-01T00:00:00' } });
    expect(local.json.error.details.fields).toHaveProperty('scheduled_at');
  });

  it('changes homepage visibility only through settings', async () => {
    const before = await call(t, 'GET', p.page, at('multi'), { key: keys.ana });
    const res = await call(t, 'PATCH', p.settings, at('multi'), { key: keys.ana, body: { homepage_mode: 'hide' } });
    expect(res.status, res.text).toBe(200);
    expect(before.json.homepage_mode).toBe('inherit');
    expect(res.json.homepage_mode).toBe('hide');
    expect({ ...res.json, homepage_mode: before.json.homepage_mode, updated_at: before.json.updated_at }).toEqual(before.json);
    const bad = await call(t, 'PATCH', p.settings, at('multi'), { key: keys.ana, body: { homepage_mode: 'sometimes', status: 'draft' } });
    expectError(bad, 422, 'VALIDATION_FAILED');
    expect(Object.keys(bad.json.error.details.fields).sort()).toEqual(['homepage_mode', 'status']);
  });

  it('403 PLAN_NO_SCHEDULING on a free plan, on create and on status change', async () => {
    const freeChannel = `free-${base}`;
    expect((await call(t, 'POST', CHANNELS, {}, { key: keys.bob, body: channelBody('Free', { slug: freeChannel }) })).status).toBe(201);
    const free = { channel_slug: freeChannel, page_slug_or_id: 'plan', language: 'en' };
    const create = await call(t, 'POST', p.pages, free, { key: keys.bob, body: articleBody('plan', { status: 'scheduled', scheduled_at: '2027-01-01T00:00:00Z' }) });
    expectError(create, 403, 'PLAN_NO_SCHEDULING');
    expect((await call(t, 'POST', p.pages, free, { key: keys.bob, body: articleBody('plan') })).status).toBe(201);
    const change = await call(t, 'PATCH', p.status, free, { key: keys.bob, body: { status: 'published', scheduled_at: '2027-01-01T00:00:00Z' } });
    expectError(change, 403, 'PLAN_NO_SCHEDULING');
  });
});

describe('lifecycle outcomes read back, with the real moderation worker', () => {
  // A service of its own: these tests move the clock. Rules: "casino" blocks, "lottery" needs a person.
  let m: TestService;
  let rulesDir = '';
  let key = '';
  const channel = 'wire';
  const p = pagePaths('channels');
  const at = (page: string | number, language = 'en') => ({ channel_slug: channel, page_slug_or_id: page, language });
  const read = (page: string) => call(m, 'GET', p.page, at(page), { key });
  const write = (body: Record<string, unknown>) => call(m, 'POST', p.pages, at(''), { key, body });

  beforeAll(async () => {
    rulesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-rules-'));
    const rules = path.join(rulesDir, 'moderation.json');
    fs.writeFileSync(rules, JSON.stringify({ blocked_terms: ['casino'], review_terms: ['lottery'] }));
    m = await startTestService({ PRESSROOM_MODERATION_FILE: rules });
    key = await m.key('wanda', 'pro');
    expect((await call(m, 'POST', CHANNELS, {}, { key, body: channelBody('Wire', { slug: channel }) })).status).toBe(201);
  });
  afterAll(async () => {
    await m?.stop();
    fs.rmSync(rulesDir, { recursive: true, force: true });
  });

  it('passed: published, with published_at', async () => {
    expect((await write(articleBody('passes', { status: 'published' }))).json.status).toBe('moderation_review');
    await m.service.worker.runDue();
    const res = await read('passes');
    expect(res.json).toMatchObject({ status: 'published', moderation: 'passed', published_at: '2026-11-22T12:00:00.000Z' });
    expect(res.json.translation_status_summary).toMatchObject({ published: ['en'], all_translations_published: true });
  });

  it('blocked: the translation is moderation_blocked, the article a draft with moderation "blocked"', async () => {
    await write({ ...articleBody('blocked', { status: 'published' }), translations: [{ language: 'en', title: 'Win', content_markdown: 'Visit the casino.' }] });
    await m.service.worker.runDue();
    const res = await read('blocked');
    expect(res.json).toMatchObject({ status: 'draft', moderation: 'blocked', published_at: null });
    expect(res.json.translations[0].status).toBe('moderation_blocked');
    expect(res.json.translation_status_summary.moderation_blocked).toEqual(['en']);
  });

  it('manual review: stays moderation_review with moderation "manual_review"', async () => {
    await write({ ...articleBody('review', { status: 'published' }), translations: [{ language: 'en', title: 'Odds', content_markdown: 'The lottery results.' }] });
    await m.service.worker.runDue();
    const res = await read('review');
    expect(res.json).toMatchObject({ status: 'moderation_review', moderation: 'manual_review' });
  });

  it('a revision of published content waits in pending_revision while the published version stays', async () => {
    const revised = await call(m, 'PUT', p.translation, at('passes'), { key, body: { title: 'Passes, revised', excerpt: 'New.', content_markdown: 'New text.' } });
    expect(revised.status, revised.text).toBe(200);
    expect(revised.json).toMatchObject({ status: 'published', moderation: 'pending' });
    expect(revised.json.translations[0].pending_revision).toEqual({
      number: 2,
      status: 'moderation_review',
      moderation: 'pending',
      reason: null,
      title: 'Passes, revised',
      excerpt: 'New.',
      created_at: '2026-11-22T12:00:00.000Z',
      decided_at: null,
    });
    await call(m, 'PUT', p.translation, at('passes'), { key, body: { title: 'Passes, revised', content_markdown: 'Lottery news.' } });
    await m.service.worker.runDue();
    const res = await read('passes');
    expect(res.json.status).toBe('published');
    expect(res.json.translations[0].pending_revision).toMatchObject({ number: 3, moderation: 'manual_review', reason: expect.stringMatching(/^review_term/) });
    expect(res.json.translation_status_summary).toMatchObject({ manual_review: ['en'], revisions_in_review: ['en'], all_translations_settled: true });

    // A refused revision: the public content stays the translation's content; pending_revision shows the refusal.
    await call(m, 'PUT', p.translation, at('passes'), { key, body: { title: 'Passes, refused', content_markdown: 'The casino.' } });
    await m.service.worker.runDue();
    const blocked = await read('passes');
    expect(blocked.json).toMatchObject({ status: 'published', moderation: 'blocked' });
    expect(blocked.json.translations[0]).toMatchObject({ status: 'published', moderation: 'blocked', title: 'Title of passes' });
    expect(blocked.json.translations[0].pending_revision).toMatchObject({ number: 4, status: 'moderation_blocked', moderation: 'blocked', reason: expect.stringMatching(/^blocked_term/) });
    expect(blocked.json.translation_status_summary).toMatchObject({ published: ['en'], revisions_blocked: ['en'], all_translations_settled: true });
    const listed = await call(m, 'GET', p.pages, at(''), { key });
    expect(listed.json.pages.find((a: { slug: string }) => a.slug === 'passes').moderation).toBe('blocked');
  });

  it('scheduled: passes moderation into scheduled, then publishes itself at scheduled_at', async () => {
    await write({
      ...articleBody('timed', { status: 'published', scheduled_at: '2026-11-23T09:00:00+01:00' }),
      translations: [
        { language: 'en', title: 'Timed', content_markdown: 'Text.' },
        { language: 'fr', title: 'Minuté', content_markdown: 'Texte.' },
      ],
    });
    await m.service.worker.runDue();
    const scheduled = await read('timed');
    expect(scheduled.json).toMatchObject({ status: 'scheduled', moderation: 'passed', scheduled_at: '2026-11-23T08:00:00.000Z', published_at: null });
    expect(scheduled.json.translation_status_summary).toMatchObject({ scheduled: ['en', 'fr'], all_translations_scheduled: true });
    expect((await call(m, 'GET', p.pages, at(''), { key, query: { status: 'scheduled' } })).json.pages.map((a: { slug: string }) => a.slug)).toEqual(['timed']);

    m.clock.set('2026-11-23T08:00:01.000Z');
    await m.service.worker.runDue();
    const published = await read('timed');
    expect(published.json).toMatchObject({ status: 'published', scheduled_at: null, published_at: '2026-11-23T08:00:01.000Z' });
    expect(published.json.translation_status_summary.all_translations_published).toBe(true);
  });

  it('a secondary translation is never published before the primary language (spec rule 1): it waits, then follows the primary', async () => {
    await write({
      ...articleBody('follower', { status: 'published' }),
      translations: [
        { language: 'en', title: 'Leader', content_markdown: 'Text.' },
        { language: 'fr', title: 'Suiveur', content_markdown: 'Texte.' },
      ],
    });
    // Before moderation runs, the primary alone is moved to a later time.
    const moved = await call(m, 'PATCH', p.status, at('follower'), { key, body: { status: 'scheduled', scheduled_at: '2026-11-23T12:00:00Z', publish_translations: false } });
    expect(moved.status, moved.text).toBe(200);
    await m.service.worker.runDue();
    const waiting = await read('follower');
    expect(waiting.json.translations.map((tr: { language: string; status: string; published_at: string | null }) => [tr.language, tr.status, tr.published_at])).toEqual([
      ['en', 'scheduled', null],
      ['fr', 'scheduled', null],
    ]);
    expect(waiting.json.translations[1].scheduled_at).toBe('2026-11-23T12:00:00.000Z');
    m.clock.set('2026-11-23T12:00:00.000Z');
    await m.service.worker.runDue();
    const out = await read('follower');
    expect(out.json.translation_status_summary.published).toEqual(['en', 'fr']);
    expect(out.json.translations.map((tr: { published_at: string }) => tr.published_at)).toEqual(['2026-11-23T12:00:00.000Z', '2026-11-23T12:00:00.000Z']);
  });

  it('a schedule pauses when the owner loses scheduling: scheduled_paused, account_plan, never published retroactively', async () => {
    await write(articleBody('paused', { status: 'scheduled', scheduled_at: '2026-11-24T08:00:00Z' }));
    await m.service.worker.runDue();
    expect((await read('paused')).json.status).toBe('scheduled');
    await m.key('wanda', 'free'); // the owner's plan loses scheduling
    m.clock.set('2026-11-24T09:00:00.000Z');
    await m.service.worker.runDue();
    const res = await read('paused');
    expect(res.json).toMatchObject({ status: 'scheduled', scheduled_paused: true, scheduled_pause_reason: 'account_plan', published_at: null });
  });
});

describe('errors of every operation', () => {
  let ops: Op[] = [];

  beforeAll(async () => {
    // A channel of ana's with one article, an editor without permissions, and olga's read-only channel (olga-4).
    expect((await call(t, 'POST', CHANNELS, {}, { key: keys.ana, body: channelBody('Target', { slug: 'target' }) })).status).toBe(201);
    expect((await call(t, 'POST', pagePaths('channels').pages, { channel_slug: 'target' }, { key: keys.ana, body: articleBody('target-page') })).status).toBe(201);
    const db = t.service.db;
    const target = await findChannelBySlug(db, 'target');
    const ed = await findAccountByName(db, 'ed');
    await upsertMembership(db, { channel_id: target!.id, account_id: ed!.id, role: 'editor', can_write_articles: 0, can_manage_channel: 0, created_at: t.clock.now().toISOString() });
    ops = operations('target', 'target-page');
  });

  it('401 AUTH_MISSING without a key, with WWW-Authenticate', async () => {
    for (const op of ops) {
      const res = await call(t, op.method, op.path, op.params, { body: op.body });
      expectError(res, 401, 'AUTH_MISSING');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pressroom"');
    }
  });

  it('401 AUTH_INVALID with an unknown key, as Bearer or X-API-Key', async () => {
    for (const op of ops) {
      expectError(await call(t, op.method, op.path, op.params, { key: 'prk_unknown', body: op.body }), 401, 'AUTH_INVALID');
      expectError(await call(t, op.method, op.path, op.params, { headers: { 'x-api-key': 'prk_unknown' }, body: op.body }), 401, 'AUTH_INVALID');
    }
  });

  it('403 PLAN_NO_API_PUBLISHING for an account without API publishing (reader)', async () => {
    for (const op of ops) expectError(await call(t, op.method, op.path, op.params, { key: keys.rita, body: op.body }), 403, 'PLAN_NO_API_PUBLISHING');
  });

  it('403 CHANNEL_ACCESS_DENIED on a channel the key owner is not a member of', async () => {
    for (const op of ops.filter((o) => o.channelScoped)) {
      expectError(await call(t, op.method, op.path, op.params, { key: keys.bob, body: op.body }), 403, 'CHANNEL_ACCESS_DENIED');
    }
  });

  it('403 CHANNEL_PERMISSION_DENIED for a member without the permission; reads still work', async () => {
    for (const op of ops.filter((o) => o.channelScoped)) {
      const res = await call(t, op.method, op.path, op.params, { key: keys.ed, body: op.body });
      if (op.write) expectError(res, 403, 'CHANNEL_PERMISSION_DENIED');
      else expect(res.status, `${op.method} ${op.path}`).toBe(200);
    }
  });

  it('403 CHANNEL_READ_ONLY for writes on a channel past the owner\'s limit, except those that take things down', async () => {
    expect((await call(t, 'GET', CHANNEL, { channel_slug: 'olga-4' }, { key: keys.olga })).json.read_only).toBe(true);
    for (const op of operations('olga-4', 'shown').filter((o) => o.channelScoped && o.write)) {
      // Publishing (not unpublishing) is a write the channel refuses.
      const body = op.path.endsWith('/status') ? { status: 'published', publish_translations: true } : op.body;
      const res = await call(t, op.method, op.path, op.params, { key: keys.olga, body });
      expectError(res, 403, 'CHANNEL_READ_ONLY');
      expect(res.json.error.message).toContain('Taking articles down still works');
    }
    // Taking down: hidden from the homepage, unpublished, archived, on the current and the legacy path.
    for (const base of BASES) {
      const p = pagePaths(base);
      const params = { channel_slug: 'olga-4', page_slug_or_id: 'shown' };
      expect((await call(t, 'PATCH', p.settings, params, { key: keys.olga, body: { homepage_mode: 'hide' } })).json.homepage_mode).toBe('hide');
      expectError(await call(t, 'PATCH', p.status, params, { key: keys.olga, body: { status: 'published', homepage_mode: 'hide' } }), 403, 'CHANNEL_READ_ONLY');
      expectError(await call(t, 'PATCH', p.status, params, { key: keys.olga, body: { status: 'draft', homepage_mode: 'allow' } }), 403, 'CHANNEL_READ_ONLY');
      expect((await call(t, 'PATCH', p.status, params, { key: keys.olga, body: { status: 'draft' } })).json.status).toBe('draft');
    }
    expect((await call(t, 'PATCH', pagePaths('channels').status, { channel_slug: 'olga-4', page_slug_or_id: 'shown' }, { key: keys.olga, body: { status: 'archived' } })).json.status).toBe('archived');
  });

  it('404 CHANNEL_NOT_FOUND and ARTICLE_NOT_FOUND', async () => {
    for (const op of operations('no-such-channel', 'target-page').filter((o) => o.channelScoped)) {
      expectError(await call(t, op.method, op.path, op.params, { key: keys.ana, body: op.body }), 404, 'CHANNEL_NOT_FOUND');
    }
    for (const op of operations('target', 'no-such-page').filter((o) => o.articleScoped)) {
      expectError(await call(t, op.method, op.path, op.params, { key: keys.ana, body: op.body }), 404, 'ARTICLE_NOT_FOUND');
    }
    expectError(await call(t, 'GET', pagePaths('channels').page, { channel_slug: 'target', page_slug_or_id: 999999 }, { key: keys.ana }), 404, 'ARTICLE_NOT_FOUND');
  });

  it('400 MALFORMED_JSON for a body that is not JSON', async () => {
    for (const op of ops.filter((o) => o.body !== undefined)) {
      expectError(await call(t, op.method, op.path, op.params, { key: keys.ana, body: '{"title": "unterminated' }), 400, 'MALFORMED_JSON');
    }
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a body not sent as JSON', async () => {
    for (const op of ops.filter((o) => o.body !== undefined)) {
      const res = await call(t, op.method, op.path, op.params, { key: keys.ana, body: JSON.stringify(op.body), headers: { 'content-type': 'text/plain' } });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('422 VALIDATION_FAILED with details.fields for a body that is not an object', async () => {
    for (const op of ops.filter((o) => o.body !== undefined)) {
      const res = await call(t, op.method, op.path, op.params, { key: keys.ana, body: '[1, 2]' });
      expectError(res, 422, 'VALIDATION_FAILED');
      expect(res.json.error.details.fields).toHaveProperty('body');
    }
  });

  it('404 NOT_FOUND for unknown paths and methods, in the Error shape', async () => {
    const unknown = [
      await t.request('GET', '/api/v1/nothing-here', { key: keys.ana }),
      await t.request('DELETE', '/api/v1/channels/target', { key: keys.ana }),
      await t.request('GET', '/api/v1/projects/target', { key: keys.ana }),
      await t.request('GET', '/nothing-here'),
    ];
    for (const res of unknown) {
      expectError(res, 404, 'NOT_FOUND');
      expect(api.validateSchema('Error', res.json)).toEqual([]);
    }
    // Under /api/v1 the key is checked first.
    const anonymous = await t.request('GET', '/api/v1/nothing-here');
    expectError(anonymous, 401, 'AUTH_MISSING');
  });
});

describe('413 PAYLOAD_TOO_LARGE (PRESSROOM_MAX_BODY_MB=0.01)', () => {
  let small: TestService;
  beforeAll(async () => {
    small = await startTestService({ PRESSROOM_MAX_BODY_MB: '0.01' });
  });
  afterAll(async () => small?.stop());

  it('answers every body operation, before authentication', async () => {
    const key = await small.key('big', 'pro');
    const filler = 'x'.repeat(20_000);
    for (const op of operations('any', 'any').filter((o) => o.body !== undefined)) {
      const body = { ...(op.body as object), filler };
      expectError(await call(small, op.method, op.path, op.params, { key, body }), 413, 'PAYLOAD_TOO_LARGE');
    }
    expectError(await call(small, 'POST', CHANNELS, {}, { body: { filler } }), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('429 ACCOUNT_BUSY (PRESSROOM_BODY_QUEUE_PER_ACCOUNT=1)', () => {
  let busy: TestService;
  let key = '';
  // Seconds of parsing on a body thread: the account's next bodies wait, and one past the queue is refused.
  const slow = ('- '.repeat(24) + 'x\n').repeat(400);
  beforeAll(async () => {
    busy = await startTestService({ PRESSROOM_BODY_WORKERS: '2', PRESSROOM_BODY_QUEUE_PER_ACCOUNT: '1' });
    key = await busy.key('busy', 'pro');
    expect((await call(busy, 'POST', CHANNELS, {}, { key, body: { slug: 'busy', ...channelBody('Busy') } })).status).toBe(201);
  });
  afterAll(async () => busy?.stop());

  it('answers the writes that prepare bodies, with Retry-After, once the account has its bodies waiting', async () => {
    for (const base of BASES) {
      const p = pagePaths(base);
      const params = { channel_slug: 'busy', page_slug_or_id: `held-${base}`, language: 'fr' };
      expect((await call(busy, 'POST', p.pages, params, { key, body: articleBody(`held-${base}`) })).status).toBe(201);
      const writes = await Promise.all([
        ...Array.from({ length: 3 }, (_, i) => call(busy, 'POST', p.pages, params, { key, body: { ...articleBody(`many-${base}-${i}`), translations: [{ language: 'en', title: 'Many', content_markdown: slow }] } })),
        ...Array.from({ length: 3 }, () => call(busy, 'PUT', p.translation, params, { key, body: { title: 'Titre', content_markdown: slow } })),
      ]);
      const refused = writes.filter((w) => w.status === 429);
      expect(refused.length, writes.map((w) => w.status).join()).toBeGreaterThan(0);
      for (const w of refused) {
        expectError(w, 429, 'ACCOUNT_BUSY');
        expect(w.headers.get('retry-after')).toBe('5');
      }
      expect(writes.filter((w) => w.status !== 429 && w.status >= 300)).toEqual([]);
    }
  }, 180_000);
});

describe('500 INTERNAL when the service fails', () => {
  let broken: TestService;
  let key = '';
  beforeAll(async () => {
    broken = await startTestService();
    key = await broken.key('ana', 'pro');
    await broken.service.db.destroy(); // every request now fails inside the service
  });
  afterAll(async () => broken?.stop());

  it('answers every operation with the generic error', async () => {
    for (const op of operations('any', 'any')) {
      const res = await call(broken, op.method, op.path, op.params, { key, body: op.body });
      expectError(res, 500, 'INTERNAL');
      expect(res.json.error.message).toBe(ERROR_CATALOGUE.INTERNAL.message);
    }
  });
});

describe('coverage', () => {
  it('exercised every documented (method, path, status)', () => {
    // Media upload has its own suite (test/e2e/media.test.ts), which validates every response against this document.
    const missing = api
      .documentedResponses()
      .filter((r) => !r.path.endsWith('/media'))
      .map((r) => `${r.method} ${r.path} ${r.status}`)
      .filter((entry) => !exercised.has(entry));
    expect(missing, 'documented responses no test provoked').toEqual([]);
  });
});
