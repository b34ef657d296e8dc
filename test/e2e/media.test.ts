/**
 * Media upload over real HTTP (publishing-api.md: media upload fields, image
 * response, rules 1–3, limits), with images generated here by sharp: formats,
 * sizes, EXIF rotation, focus crops, the watermark, the 413/422 cases, draft
 * URLs rewritten when articles are saved, serving, and the cleanup job driven
 * by the manual clock.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccountByName } from '../../server/store/account.repository.ts';
import { findChannelBySlug, upsertMembership } from '../../server/store/channel.repository.ts';
import { createOpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
const HOUR = 3_600_000;
const MB = 1024 * 1024;
const HASHED = '[0-9a-f]{16}\\.webp';
// Every upload response is checked against the published API document.
const api = createOpenApiValidator(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi/publishing-api.yaml'));

interface Upload {
  status: number;
  json: any;
}

/** POSTs a multipart form; `image: null` leaves the file out. */
async function upload(channel: string, image: Uint8Array | null, fields: Record<string, string> = {}, options: { base?: string; k?: string; type?: string } = {}): Promise<Upload> {
  const form = new FormData();
  if (image) form.set('image', new Blob([new Uint8Array(image)], { type: options.type ?? 'application/octet-stream' }), 'upload.bin');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${t.url}/api/v1/${options.base ?? 'channels'}/${channel}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.k ?? key}` },
    body: form,
  });
  const json = await res.json();
  api.assertResponse('POST', `/${options.base ?? 'channels'}/{channel_slug}/media`, res.status, json);
  return { status: res.status, json };
}

const solid = (width: number, height: number, background = '#3366cc') => sharp({ create: { width, height, channels: 3, background } });

/** An image split in two colours, left/right or top/bottom. */
async function split(width: number, height: number, first: string, second: string, vertical = false): Promise<Buffer> {
  const [w, h] = vertical ? [width, Math.floor(height / 2)] : [Math.floor(width / 2), height];
  const part = await solid(w, h, second).png().toBuffer();
  return solid(width, height, first).composite([{ input: part, left: width - w, top: height - h }]).png().toBuffer();
}

/** Fetches a stored file by the URL the API returned. */
const served = (url: string, headers: Record<string, string> = {}) => fetch(`${t.url}${new URL(url).pathname}`, { headers });

async function mean(url: string, region?: sharp.Region): Promise<number[]> {
  const data = Buffer.from(await (await served(url)).arrayBuffer());
  const input = region ? await sharp(data).extract(region).png().toBuffer() : data;
  return (await sharp(input).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
}

const fileOf = (url: string) => path.join(t.config.outputDir, decodeURIComponent(new URL(url).pathname));

beforeAll(async () => {
  t = await startTestService();
  key = await t.key('photographer', 'free');
  for (const [slug, watermark] of [['pics', false], ['marked', true]] as const) {
    const res = await t.request('POST', '/api/v1/channels', {
      key,
      body: { slug, default_language: 'en', watermark_enabled: watermark, translations: [{ language: 'en', title: `Daily ${slug}` }, { language: 'fr', title: `Quotidien ${slug}` }] },
    });
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(async () => t?.stop());

describe('article images', () => {
  it('stores a PNG as WebP and answers with the Image response (a draft URL)', async () => {
    const res = await upload('pics', await solid(800, 600).png().toBuffer(), { alt: 'A [blue] square' });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      schema_version: '1.0',
      id: expect.any(Number),
      url: expect.stringMatching(new RegExp(`^http://pressroom\\.test/media/pics/_drafts/${HASHED}$`)),
      alt: 'A [blue] square',
      width: 800,
      height: 600,
      markdown: `![A \\[blue\\] square](${res.json.url})`,
      html: `<figure><img src="${res.json.url}" alt="A [blue] square" width="800" height="600"></figure>`,
      watermark_applied: false,
      watermark_type: 'none',
    });
    const file = await served(res.json.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 600]);
    expect((await served(res.json.url, { 'if-none-match': file.headers.get('etag')! })).status).toBe(304);
    // The same bytes again are the same file and the same record.
    const again = await upload('pics', await solid(800, 600).png().toBuffer(), { alt: 'Again' });
    expect([again.json.id, again.json.url, again.json.alt]).toEqual([res.json.id, res.json.url, 'Again']);
  });

  it('applies EXIF orientation 6 and strips metadata', async () => {
    const jpeg = await sharp(await split(300, 200, '#ff0000', '#0000ff')).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const res = await upload('pics', jpeg);
    expect([res.status, res.json.width, res.json.height]).toEqual([201, 200, 300]);
    const meta = await sharp(fs.readFileSync(fileOf(res.json.url))).metadata();
    expect([meta.orientation, meta.exif]).toEqual([undefined, undefined]);
    expect((await mean(res.json.url, { left: 0, top: 0, width: 200, height: 100 }))[0]).toBeGreaterThan(200); // red left half is now on top
  });

  it('accepts exactly 24 megapixels (6000 × 4000), stored at 1600 px; refuses 6001 × 4000 with 422', async () => {
    const ok = await upload('pics', await solid(6000, 4000).jpeg().toBuffer());
    expect([ok.status, ok.json.width, ok.json.height]).toEqual([201, 1600, 1067]);
    const tooMany = await upload('pics', await solid(6001, 4000).png({ compressionLevel: 1 }).toBuffer());
    expect([tooMany.status, tooMany.json.error.code]).toEqual([422, 'IMAGE_TOO_MANY_PIXELS']);
    expect(tooMany.json.error.message).toContain('6001 × 4000');
  });

  it('reads a GIF; refuses corrupt bytes, SVG and a missing file with 422', async () => {
    const gif = await upload('pics', await solid(120, 80, '#00ff00').gif().toBuffer());
    expect([gif.status, gif.json.width, gif.json.height]).toEqual([201, 120, 80]);
    const corrupt = await upload('pics', new TextEncoder().encode('GIF89a but not really an image'));
    expect([corrupt.status, corrupt.json.error.code]).toEqual([422, 'IMAGE_UNREADABLE']);
    const svg = await upload('pics', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'));
    expect([svg.status, svg.json.error.code]).toEqual([422, 'IMAGE_FORMAT_UNSUPPORTED']);
    const missing = await upload('pics', null, { alt: 'Nothing' });
    expect([missing.status, missing.json.error.code, Object.keys(missing.json.error.details.fields)]).toEqual([422, 'VALIDATION_FAILED', ['image']]);
  });

  it('names position_x / position_y outside 0–100', async () => {
    const res = await upload('pics', await solid(64, 64).png().toBuffer(), { position_x: '101', position_y: '-1' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.error.details.fields).sort()).toEqual(['position_x', 'position_y']);
  });

  it('checks 10 MB exactly on the file: 10 MB is read, one byte more is 413; a far larger body is 413 too', async () => {
    const exact = await upload('pics', new Uint8Array(10 * MB));
    expect([exact.status, exact.json.error.code]).toEqual([422, 'IMAGE_UNREADABLE']);
    const over = await upload('pics', new Uint8Array(10 * MB + 1));
    expect([over.status, over.json.error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
    expect(over.json.error.message).toContain('10485761 bytes');
    const huge = await upload('pics', new Uint8Array(12 * MB));
    expect([huge.status, huge.json.error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
  });

  it('wants multipart/form-data that parses, from a key holder', async () => {
    const res = await t.request('POST', '/api/v1/channels/pics/media', { key, body: { image: 'x' } });
    expect([res.status, res.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await t.request('POST', '/api/v1/channels/pics/media', { key, body: 'not a form', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    expect([broken.status, broken.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    api.assertResponse('POST', '/channels/{channel_slug}/media', broken.status, broken.json);
    const anonymous = await t.request('POST', '/api/v1/channels/pics/media', { body: 'x', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    expect([anonymous.status, anonymous.json.error.code]).toEqual([401, 'AUTH_MISSING']);
  });
});

describe('uploads per account', () => {
  it('takes 2 on their way and 2 waiting; more at once are 429 TOO_MANY_UPLOADS with Retry-After, on both paths', async () => {
    const big = await solid(6000, 4000, '#884422').png().toBuffer(); // 24 MP to decode: each upload holds its slot a while
    for (const base of ['channels', 'projects']) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => upload('pics', big, {}, { base })));
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length, answers.map((a) => a.status).join()).toBeGreaterThan(0);
      expect(refused.every((a) => a.json.error.code === 'TOO_MANY_UPLOADS' && a.json.error.details.retry_after_seconds === 5)).toBe(true);
      expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(4);
      // Refused before anything was read or stored: the account can upload again at once.
      expect((await upload('pics', big, {}, { base })).status).toBe(201);
    }
  }, 120_000);
});

describe('watermark', () => {
  const white = () => solid(1200, 800, '#ffffff').png().toBuffer();
  const corner = { left: 900, top: 700, width: 280, height: 90 };

  it('auto follows the channel setting; on and off force it; the mark is in the pixels', async () => {
    const auto = await upload('marked', await white());
    const off = await upload('marked', await white(), { watermark: 'off' });
    const on = await upload('pics', await white(), { watermark: 'on' });
    const autoPlain = await upload('pics', await white(), { watermark: 'auto' });
    expect([auto, off, on, autoPlain].map((r) => [r.status, r.json.watermark_applied, r.json.watermark_type])).toEqual([
      [201, true, 'channel_name'],
      [201, false, 'none'],
      [201, true, 'channel_name'],
      [201, false, 'none'],
    ]);
    expect((await mean(auto.json.url, corner))[0]).toBeLessThan(235);
    expect((await mean(off.json.url, corner))[0]).toBeGreaterThan(250);
    expect(auto.json.url).not.toBe(off.json.url);
  });
});

describe('channel images', () => {
  it('crops a 512 × 512 avatar around the focus point, never watermarked, and sets it on the channel', async () => {
    const image = await split(1200, 600, '#ff0000', '#0000ff');
    const left = await upload('marked', image, { purpose: 'channel_avatar', position_x: '0' });
    const right = await upload('marked', image, { purpose: 'channel_avatar', position_x: '100' });
    expect([left.status, left.json.width, left.json.height, left.json.watermark_applied]).toEqual([201, 512, 512, false]);
    expect(left.json.url).toMatch(new RegExp(`/media/marked/_channel/avatar-${HASHED}$`));
    expect((await mean(left.json.url))[0]).toBeGreaterThan(240);
    expect((await mean(right.json.url))[2]).toBeGreaterThan(240);
    const channel = await t.request('GET', '/api/v1/channels/marked', { key });
    expect(channel.json.avatar_url).toBe(right.json.url);
    const marked = await upload('marked', image, { purpose: 'channel_avatar', watermark: 'on' });
    expect([marked.status, Object.keys(marked.json.error.details.fields)]).toEqual([422, ['watermark']]);
  });

  it('crops a 16:9 cover around the vertical focus', async () => {
    const image = await split(800, 1200, '#00ff00', '#ffff00', true);
    const top = await upload('pics', image, { purpose: 'channel_cover', position_y: '0' });
    expect([top.status, top.json.width, top.json.height]).toEqual([201, 800, 450]);
    expect(await mean(top.json.url)).toEqual([expect.toSatisfy((r: number) => r < 15), expect.toSatisfy((g: number) => g > 240), expect.any(Number)]);
    const bottom = await upload('pics', image, { purpose: 'channel_cover', position_y: '100' });
    expect((await mean(bottom.json.url))[0]).toBeGreaterThan(240);
    expect((await t.request('GET', '/api/v1/channels/pics', { key })).json.cover_url).toBe(bottom.json.url);
  });

  it.each([
    // Issue 18: a 1 × 1600 avatar was scaled to 512 × 819,200 before cropping (1.2 GB, 14 s, then a 500).
    ['channel_avatar', 1, 1600, [512, 512]],
    ['channel_avatar', 1600, 1, [512, 512]],
    ['channel_avatar', 1, 800, [512, 512]],
    ['channel_cover', 1, 1600, [1, 1]],
    ['channel_cover', 1600, 1, [2, 1]],
    ['article', 1, 1600, [1, 1600]],
    ['article', 20_000, 1, [1600, 1]],
  ] as const)('a %s from a %i × %i image is %j, never an oversized intermediate', async (purpose, width, height, size) => {
    const res = await upload('pics', await solid(width, height).png().toBuffer(), { purpose });
    expect([res.status, res.json.width, res.json.height]).toEqual([201, ...size]);
    const stored = await fetch(`${t.url}${new URL(res.json.url).pathname}`);
    const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', ...size]);
  });

  it('needs can_manage_channel, while article images need can_write_articles only', async () => {
    const editorKey = await t.key('editor', 'free');
    const channel = (await findChannelBySlug(t.service.db, 'pics'))!;
    const editor = (await findAccountByName(t.service.db, 'editor'))!;
    await upsertMembership(t.service.db, { channel_id: channel.id, account_id: editor.id, role: 'editor', can_write_articles: 1, can_manage_channel: 0, created_at: t.clock.now().toISOString() });
    const image = await solid(64, 64).png().toBuffer();
    expect((await upload('pics', image, {}, { k: editorKey })).status).toBe(201);
    const avatar = await upload('pics', image, { purpose: 'channel_avatar' }, { k: editorKey });
    expect([avatar.status, avatar.json.error.code]).toEqual([403, 'CHANNEL_PERMISSION_DENIED']);
    const stranger = await upload('pics', image, {}, { k: await t.key('stranger', 'free') });
    expect([stranger.status, stranger.json.error.code]).toEqual([403, 'CHANNEL_ACCESS_DENIED']);
  });
});

describe('draft and final URLs', () => {
  const read = async (slug: string) => (await t.request('GET', `/api/v1/channels/pics/pages/${slug}`, { key })).json;

  it('with page_slug points at the article folder at once; an unknown page_slug is 404', async () => {
    const created = await t.request('POST', '/api/v1/channels/pics/pages', { key, body: { slug: 'early', default_language: 'en', translations: [{ language: 'en', title: 'Early', content_markdown: 'Text.' }] } });
    expect(created.status).toBe(201);
    const res = await upload('pics', await solid(320, 200, '#112233').png().toBuffer(), { page_slug: 'early' }, { base: 'projects' });
    expect(res.status).toBe(201);
    expect(res.json.url).toMatch(new RegExp(`^http://pressroom\\.test/media/pics/early/${HASHED}$`));
    const unknown = await upload('pics', await solid(32, 32).png().toBuffer(), { page_slug: 'nope' });
    expect([unknown.status, unknown.json.error.code, Object.keys(unknown.json.error.details.fields)]).toEqual([404, 'ARTICLE_NOT_FOUND', ['page_slug']]);
  });

  it('rewrites a draft URL in every translation when the article is saved, published and translated later', async () => {
    const draft = (await upload('pics', await solid(640, 480, '#445566').png().toBuffer(), { alt: 'Harbour' })).json;
    const res = await t.request('POST', '/api/v1/channels/pics/pages', {
      key,
      body: {
        slug: 'harbour',
        default_language: 'en',
        status: 'published',
        translations: [
          { language: 'en', title: 'Harbour', content_markdown: `## Morning\n\n${draft.markdown}\n\nBoats.` },
          { language: 'fr', title: 'Port', content_html: `<h2>Matin</h2>${draft.html}<p>Bateaux.</p>` },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const final = draft.url.replace('/_drafts/', '/harbour/');
    for (const translation of res.json.translations) {
      expect(translation.content_html).toContain(final);
      expect(translation.content_html).not.toContain('_drafts');
    }
    await t.service.worker.runDue();
    const published = await t.service.db
      .selectFrom('revisions')
      .innerJoin('article_translations', 'article_translations.published_revision_id', 'revisions.id')
      .select(['article_translations.language', 'revisions.content_markdown'])
      .where('article_translations.article_id', '=', res.json.id)
      .execute();
    expect(published.map((r) => r.language).sort()).toEqual(['en', 'fr']);
    for (const r of published) expect(r.content_markdown).toContain(final);
    expect((await served(final)).status).toBe(200);
    const row = await t.service.db.selectFrom('media').selectAll().where('file_name', '=', new URL(final).pathname.slice('/media/'.length)).executeTakeFirstOrThrow();
    expect([row.article_id, row.draft, row.alt, row.width]).toEqual([res.json.id, 0, 'Harbour', 640]);

    const later = await t.request('PUT', '/api/v1/channels/pics/pages/harbour/translations/de', { key, body: { title: 'Hafen', content_markdown: `Boote: ${draft.markdown}` } });
    expect(later.status).toBe(201);
    expect((await read('harbour')).translations.find((x: { language: string }) => x.language === 'de').content_html).toContain(final);
  });

  it('the cleanup job deletes unused drafts past the age, keeps article copies and young drafts, and re-enqueues itself', async () => {
    const unused = (await upload('pics', await solid(100, 100, '#aa0000').png().toBuffer())).json;
    const used = (await upload('pics', await solid(100, 100, '#00aa00').png().toBuffer())).json;
    await t.request('POST', '/api/v1/channels/pics/pages', { key, body: { slug: 'kept', default_language: 'en', translations: [{ language: 'en', title: 'Kept', content_markdown: used.markdown }] } });
    const copy = used.url.replace('/_drafts/', '/kept/');
    t.clock.advance(25 * HOUR);
    const young = (await upload('pics', await solid(100, 100, '#0000aa').png().toBuffer())).json;
    await t.service.worker.runDue();
    expect([(await served(unused.url)).status, fs.existsSync(fileOf(unused.url))]).toEqual([404, false]);
    expect((await served(used.url)).status).toBe(404);
    expect((await served(copy)).status).toBe(200);
    expect((await served(young.url)).status).toBe(200);
    const ids = (await t.service.db.selectFrom('media').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain(unused.id);
    expect(ids).toContain(young.id);
    const next = await t.service.db.selectFrom('jobs').selectAll().where('kind', '=', 'media_cleanup').where('state', '=', 'pending').execute();
    expect(next.map((j) => j.run_at)).toEqual([new Date(t.clock.now().getTime() + HOUR).toISOString()]);
  });
});

describe('serving /media', () => {
  /** A GET with the path sent as is: fetch would normalise dot segments away. */
  function rawGet(rawPath: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      http
        .get({ hostname, port, path: rawPath }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
  }

  it('never serves anything outside the media folder', async () => {
    fs.mkdirSync(t.config.outputDir, { recursive: true });
    fs.writeFileSync(path.join(t.config.outputDir, 'secret.webp'), 'SECRET');
    for (const attempt of [
      '/media/../secret.webp',
      '/media/..%2fsecret.webp',
      '/media/%2e%2e/secret.webp',
      '/media/%2E%2E%2Fsecret.webp',
      '/media/pics/..%5c..%5csecret.webp',
      '/media/pics\\..\\..\\secret.webp',
      '/media//etc/passwd',
      '/media/%2fetc%2fpasswd',
      '/media/pics/_drafts/.hidden.webp',
    ]) {
      const res = await rawGet(attempt);
      // 404 from the route; Node's HTTP parser itself answers 400 to a raw backslash.
      expect([400, 404], attempt).toContain(res.status);
      expect(res.body, attempt).not.toContain('SECRET');
    }
    const missing = await rawGet('/media/pics/_drafts/0000000000000000.webp');
    expect([missing.status, JSON.parse(missing.body).error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
