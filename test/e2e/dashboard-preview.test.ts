/**
 * The dashboard's preview of a publish over real HTTP (issue 37, "Preview of
 * the exact bytes"): the page and the files a publish would write, made by
 * the builder's own plans and renderers, byte for byte what the build then
 * writes; nothing of the draft in the output or the public API meanwhile;
 * the article's access rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticFiles } from '../../server/serving/static-files.ts';
import { accountWithPassword, sessionCookie } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
const keys: Record<string, string> = {};

const cookieOf = (account: string) => sessionCookie(t, account);

async function get(cookie: string | null, address: string) {
  const res = await fetch(`${t.url}${address}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Every file of the output folder with its bytes (the search index aside: it follows builds in the background). */
function outputSnapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(t.config.outputDir, full);
      if (rel.startsWith('pagefind')) continue;
      if (entry.isDirectory()) walk(full);
      else files.set(rel, fs.readFileSync(full).toString('base64'));
    }
  };
  walk(t.config.outputDir);
  return files;
}

/** The files the preview screen lists as written, changed or deleted, by path. */
function listed(screen: string): Map<string, string> {
  return new Map([...screen.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td>[^<]+<\/td><td>(written \(new\)|changed|deleted)/g)].map((m) => [m[1]!, m[2]!]));
}

const settle = () => t.service.staticSite!.queue.settle(20_000);

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
  keys.ana = await accountWithPassword(t, 'ana', 'pro');
  keys.fay = await accountWithPassword(t, 'fay', 'pro');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the preview of a publish', () => {
  let channel: string;
  let base: string;
  let api: string;

  it('shows a draft in two languages as publishing would write it, and writes nothing', async () => {
    const created = await t.request('POST', '/api/v1/channels', { key: keys.ana, body: { slug: 'dispatch', default_language: 'en', translations: [{ language: 'en', title: 'Dispatch' }] } });
    expect(created.status, created.text).toBe(201);
    channel = created.json.slug;
    // Another article, published: the new one joins its channel's lists.
    const other = await t.request('POST', `/api/v1/channels/${channel}/pages`, { key: keys.ana, body: { slug: 'earlier', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Earlier', content_markdown: 'Earlier text.' }] } });
    expect(other.status, other.text).toBe(201);
    await t.service.worker.runDue();
    const draft = await t.request('POST', `/api/v1/channels/${channel}/pages`, {
      key: keys.ana,
      body: {
        slug: 'story',
        default_language: 'en',
        status: 'draft',
        translations: [
          { language: 'en', title: 'Secret draft story', excerpt: 'An excerpt nobody has read.', content_markdown: 'Draft body **unpublished**.\n\nA second paragraph.' },
          { language: 'ar', title: 'قصة سرية', content_markdown: 'نص المسودة.' },
        ],
      },
    });
    expect(draft.status, draft.text).toBe(201);
    api = `/api/v1/channels/${channel}/pages/${draft.json.id}`;
    base = `${new URL(draft.json.edit_url).pathname}/preview`;
    await settle();
    const before = outputSnapshot();
    const ana = await cookieOf('ana');

    const screen = await get(ana, base);
    expect(screen.status).toBe(200);
    expect(screen.headers.get('content-security-policy')).toContain("frame-src 'self'");
    expect(screen.headers.get('cache-control')).toBe('no-store');
    const page = text(screen.bytes);
    expect(page).toContain('every translation (en, ar)');
    expect(page).toContain(`<iframe class="preview-frame" sandbox src="${base}/en.html"`);
    const files = listed(page);
    for (const lang of ['en', 'ar']) {
      expect(files.get(staticFiles.articleHtml(channel, 'story', lang))).toBe('written (new)');
      expect(files.get(staticFiles.articleJson(channel, 'story', lang))).toBe('written (new)');
      expect(files.get(staticFiles.articleMarkdown(channel, 'story', lang))).toBe('written (new)');
    }
    expect(files.get(staticFiles.articleDefaultHtml(channel, 'story'))).toBe('written (new)');
    // The channel's lists and feeds list it: the default ones change, the Arabic ones are new.
    expect(files.get(staticFiles.rss(channel))).toBe('changed');
    expect(files.get(staticFiles.jsonFeed(channel))).toBe('changed');
    expect(files.get(staticFiles.channelArticlesJson(channel))).toBe('changed');
    expect(files.get(staticFiles.channelHtml(channel))).toBe('changed');
    expect(files.get(staticFiles.rss(channel, 'ar'))).toBe('written (new)');
    expect(files.get(staticFiles.channelHtml(channel, 'ar'))).toBe('written (new)');
    expect(files.get(staticFiles.channelSitemapPart(channel, 1))).toBe('changed');
    expect(files.get(staticFiles.home())).toBe('changed');
    // The channel's cursor pages around its place: the page after it is new.
    expect([...files].filter(([p, change]) => p.includes('/_cursor/') && change === 'written (new)').length).toBeGreaterThan(0);
    // The feed's diff shows the new item.
    expect(page).toMatch(/<ins>\+[^<]*Secret draft story/);

    const en = await get(ana, `${base}/en.html`);
    expect(en.status).toBe(200);
    expect(en.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(en.headers.get('cache-control')).toBe('no-store');
    expect(en.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(en.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'; sandbox$/);
    expect(text(en.bytes)).toContain('Secret draft story');
    const ar = await get(ana, `${base}/ar.html`);
    expect(ar.status).toBe(200);
    expect(text(ar.bytes)).toContain('قصة سرية');
    expect((await get(ana, `${base}/fr.html`)).status).toBe(404);

    // Nothing of the draft reached the output or the public API.
    await settle();
    expect(outputSnapshot()).toEqual(before);
    const publicList = await t.request('GET', `/api/public/v1/channels/${channel}/articles`);
    expect(publicList.status).toBe(200);
    expect(publicList.text).not.toContain('Secret draft');
    expect((await t.request('GET', `/api/public/v1/channels/${channel}/articles/story`)).status).toBe(404);
    expect((await t.request('GET', `/${channel}/story`)).status).toBe(404);

    // The same bytes once published: the page is the preview's, the build writes and deletes exactly the files
    // the preview listed, and a preview now has nothing to write.
    const published = await t.request('PATCH', `${api}/status`, { key: keys.ana, body: { status: 'published', publish_translations: true } });
    expect(published.status, published.text).toBe(200);
    await t.service.worker.runDue();
    await settle();
    const built = outputSnapshot();
    const touched = [...new Set([...before.keys(), ...built.keys()])].filter((p) => before.get(p) !== built.get(p)).sort();
    expect(touched).toEqual([...files.keys()].sort());
    for (const [p, change] of files) expect([p, before.has(p), built.has(p)]).toEqual([p, change !== 'written (new)', change !== 'deleted']);
    expect(fs.readFileSync(path.join(t.config.outputDir, staticFiles.articleHtml(channel, 'story', 'en')))).toEqual(Buffer.from(en.bytes));
    expect(fs.readFileSync(path.join(t.config.outputDir, staticFiles.articleHtml(channel, 'story', 'ar')))).toEqual(Buffer.from(ar.bytes));
    const after = text((await get(ana, base)).bytes);
    expect(after).toContain('Every translation is as readers have it');
    expect(after).toContain('Publishing would write or delete no file.');
    expect(listed(after).size).toBe(0);
  }, 60_000);

  it('shows what a saved revision of a published article changes against the live file', async () => {
    const saved = await t.request('PUT', `${api}/translations/en`, { key: keys.ana, body: { title: 'Secret draft story', excerpt: 'An excerpt nobody has read.', content_markdown: 'Revised body, **changed**.\n\nA second paragraph.' } });
    expect(saved.status, saved.text).toBe(200);
    await settle();
    const live = fs.readFileSync(path.join(t.config.outputDir, staticFiles.articleHtml(channel, 'story', 'en')), 'utf8');
    expect(live).toContain('unpublished');
    expect(live).not.toContain('Revised body');
    const ana = await cookieOf('ana');
    const page = text((await get(ana, base)).bytes);
    expect(page).toContain('Texts not yet public: en.');
    const files = listed(page);
    expect(files.get(staticFiles.articleHtml(channel, 'story', 'en'))).toBe('changed');
    expect(files.get(staticFiles.articleMarkdown(channel, 'story', 'en'))).toBe('changed');
    // The Arabic translation has nothing waiting: its files stay.
    expect(files.has(staticFiles.articleHtml(channel, 'story', 'ar'))).toBe(false);
    expect(page).toMatch(/<del>-[^<]*unpublished/);
    expect(page).toMatch(/<ins>\+[^<]*Revised body/);
    const en = await get(ana, `${base}/en.html`);
    expect(text(en.bytes)).toContain('Revised body');
    // Once the revision passes moderation, the build writes exactly those files, the page with the preview's bytes.
    const before = outputSnapshot();
    await t.service.worker.runDue();
    await settle();
    const built = outputSnapshot();
    expect([...new Set([...before.keys(), ...built.keys()])].filter((p) => before.get(p) !== built.get(p)).sort()).toEqual([...files.keys()].sort());
    expect(fs.readFileSync(path.join(t.config.outputDir, staticFiles.articleHtml(channel, 'story', 'en')))).toEqual(Buffer.from(en.bytes));
    expect(listed(text((await get(ana, base)).bytes)).size).toBe(0);
  }, 60_000);

  it('is the 404 page for another account, and sends the signed-out to sign in', async () => {
    const fay = await cookieOf('fay');
    for (const address of [base, `${base}/en.html`]) {
      const refused = await get(fay, address);
      expect(refused.status).toBe(404);
      expect(text(refused.bytes)).not.toContain('Secret draft');
      const signedOut = await get(null, address);
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.get('location')).toMatch(/^\/dashboard\/login\?next=/);
    }
  });
});
