/**
 * The builder on a thread of its own (issue 36, "builds off the request
 * thread"): the service's builder is the build thread (`build-thread.ts`),
 * and the public state the read API answers from on this thread is the
 * thread's, sent with each build (`read-model/state-delta.ts`). Real HTTP,
 * the real worker, the real thread; the loops poll as a client would and
 * assert nothing about time.
 *
 * - An answer made on demand from that state (`?limit=`, `include=html`)
 *   shows a change as soon as the publishing API reports it, as the files do.
 * - After any sequence of writes, the state held here is what the store
 *   holds: every list made on demand equals the list's file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil as poll } from '../helpers/poll.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
const CHANNELS = ['thread-a', 'thread-b'];

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' }, { startWorker: true });
  key = await t.key('threads', 'pro');
  for (const slug of CHANNELS) {
    const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug, default_language: 'en', translations: [{ language: 'en', title: slug }, { language: 'fr', title: `${slug} fr` }] } });
    expect(ch.status, ch.text).toBe(201);
  }
}, 120_000);
afterAll(async () => t?.stop());

const page = (channel: string, slug: string) => `/api/v1/channels/${channel}/pages/${slug}`;
/** Reads the article until `test` holds for its translations' statuses (at most 60 s). */
async function pollUntil(channel: string, slug: string, test: (statuses: string[]) => boolean): Promise<void> {
  await poll(
    async () => (await t.request('GET', page(channel, slug), { key })).json.translations.map((tr: { status: string }) => tr.status) as string[],
    test,
    { what: `${slug} to reach the awaited state`, timeoutMs: 60_000, intervalMs: 2 },
  );
}

const slugsOf = (body: { articles?: Array<{ slug: string }> }) => (body.articles ?? []).map((a) => a.slug);

describe('the builder on a thread of its own', () => {
  it('is the service builder, and the request thread holds the public state it sends', async () => {
    const builder = t.service.staticSite!.builder as unknown as { close?: unknown };
    expect(typeof builder.close, 'the service builds on the build thread').toBe('function');
    await t.service.staticSite!.queue.settle(60_000);
    const state = await t.service.staticSite!.builder.publicState();
    expect(state.channels.map((c) => c.slug).sort()).toEqual(CHANNELS);
  });

  it('answers on demand what the publishing API reports, at once: a publish, a revision, a withdrawal', async () => {
    for (let i = 0; i < 8; i++) {
      const channel = CHANNELS[i % 2]!;
      const slug = `on-demand-${i}`;
      const created = await t.request('POST', `/api/v1/channels/${channel}/pages`, {
        key,
        body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `First ${i}`, content_markdown: `Body ${i}.` }, { language: 'fr', title: `Premier ${i}`, content_markdown: `Corps ${i}.` }] },
      });
      expect(created.status, created.text).toBeLessThan(300);
      await pollUntil(channel, slug, (s) => s.every((x) => x === 'published'));
      // Reported published: the answers made from the request thread's state show it.
      const [short, french, html] = await Promise.all([
        t.request('GET', `/api/public/v1/channels/${channel}/articles?limit=3`),
        t.request('GET', `/api/public/v1/channels/${channel}/articles?lang=fr&limit=3`),
        t.request('GET', `/api/public/v1/channels/${channel}/articles/${slug}?include=html`),
      ]);
      expect(slugsOf(short.json)[0], short.text).toBe(slug);
      expect(slugsOf(french.json)[0], french.text).toBe(slug);
      expect(html.status, html.text).toBe(200);
      expect(html.json.content_html).toContain(`Body ${i}.`);

      const revised = await t.request('PUT', `/api/v1/channels/${channel}/pages/${slug}/translations/en`, { key, body: { title: `Second ${i}`, content_markdown: `Revised ${i}.` } });
      expect(revised.status, revised.text).toBeLessThan(300);
      type Article = { translations: Array<{ language: string; pending_revision: unknown }>; translation_status_summary: { all_translations_settled: boolean } };
      const article = await poll(
        async () => (await t.request('GET', page(channel, slug), { key })).json as Article,
        (a) => a.translations.every((tr) => tr.pending_revision === null) && a.translation_status_summary.all_translations_settled,
        { what: `the revision of ${slug} to settle`, timeoutMs: 60_000, intervalMs: 2 },
      );
      expect(article.translations.every((tr) => tr.pending_revision === null)).toBe(true);
      const again = await t.request('GET', `/api/public/v1/channels/${channel}/articles/${slug}?include=html`);
      expect(again.json.content_html, again.text).toContain(`Revised ${i}.`);

      const withdrawn = await t.request('PATCH', `${page(channel, slug)}/status`, { key, body: { status: 'draft', publish_translations: true } });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      // The withdrawal's answer waits for the build that removes it: gone from every answer made on demand.
      const [gone, list] = await Promise.all([
        t.request('GET', `/api/public/v1/channels/${channel}/articles/${slug}?include=html`),
        t.request('GET', `/api/public/v1/channels/${channel}/articles?limit=50`),
      ]);
      expect(gone.status).toBe(404);
      expect(slugsOf(list.json)).not.toContain(slug);
    }
  }, 300_000);

  it('holds what the store holds after any sequence of writes: each list made on demand is the list file', async () => {
    for (let i = 0; i < 12; i++) {
      const channel = CHANNELS[i % 2]!;
      const res = await t.request('POST', `/api/v1/channels/${channel}/pages`, {
        key,
        body: { slug: `kept-${i}`, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Kept ${i}`, content_markdown: `Kept ${i}.` }] },
      });
      expect(res.status, res.text).toBeLessThan(300);
    }
    for (const i of [1, 4, 7]) {
      const res = await t.request('PATCH', `${page(CHANNELS[i % 2]!, `kept-${i}`)}/status`, { key, body: { status: 'draft', publish_translations: true } });
      expect(res.status, res.text).toBe(200);
    }
    const renamed = await t.request('PATCH', `/api/v1/channels/${CHANNELS[0]}`, { key, body: { title: 'Renamed' } });
    expect(renamed.status, renamed.text).toBe(200);
    await t.service.worker.runDue();
    await t.service.staticSite!.queue.settle(60_000);
    await t.service.staticSite!.queue.idle();
    for (const channel of CHANNELS)
      for (const lang of ['', '?lang=fr']) {
        const address = `/api/public/v1/channels/${channel}/articles${lang}`;
        const file = await t.request('GET', address);
        const onDemand = await t.request('GET', `${address}${lang ? '&' : '?'}limit=19`);
        expect(file.status, file.text).toBe(200);
        // The first 19 of the file's 20 are the on-demand page of 19, in the same order with the same fields.
        expect(onDemand.json.articles, address).toEqual(file.json.articles.slice(0, 19));
      }
    const channelDoc = await t.request('GET', `/api/public/v1/channels/${CHANNELS[0]}`);
    expect(JSON.stringify(channelDoc.json)).toContain('Renamed');
  }, 300_000);
});

describe('without worker threads (PRESSROOM_BUILD_WORKERS=0)', () => {
  it('builds in the request thread, and answers the same', async () => {
    const solo = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_BUILD_WORKERS: '0', PRESSROOM_RATE_LIMIT_CONTENT: '0' }, { startWorker: true });
    try {
      const builder = solo.service.staticSite!.builder as unknown as { close?: unknown };
      expect(builder.close, 'the builder is the one made in place').toBeUndefined();
      const soloKey = await solo.key('solo', 'pro');
      expect((await solo.request('POST', '/api/v1/channels', { key: soloKey, body: { slug: 'solo', default_language: 'en', translations: [{ language: 'en', title: 'Solo' }] } })).status).toBe(201);
      const res = await solo.request('POST', '/api/v1/channels/solo/pages', { key: soloKey, body: { slug: 'alone', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Alone', content_markdown: 'Alone.' }] } });
      expect(res.status, res.text).toBeLessThan(300);
      await poll(
        async () => (await solo.request('GET', '/api/v1/channels/solo/pages/alone', { key: soloKey })).json.translations[0].status as string,
        (status) => status === 'published',
        { what: 'the article to be published', timeoutMs: 60_000, intervalMs: 2 },
      );
      const list = await solo.request('GET', '/api/public/v1/channels/solo/articles?limit=3');
      expect(slugsOf(list.json), list.text).toEqual(['alone']);
    } finally {
      await solo.stop();
    }
  }, 120_000);
});
