/**
 * Pagination from static files (issue 14): a client that follows
 * `_links.next` from a list's first page visits every article that stays
 * published exactly once, in order, and stops — on the bundled server, on
 * nginx and on Cloudflare Pages (`wrangler pages dev`) serving the same `dist/`, while articles are published, revised and
 * unpublished between its requests (the article whose position the cursor
 * names included). Each page a host sends is the bundled server's answer
 * byte for byte; a cursor no page has is an error, never page 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesOfChannel, requireChannel } from '../../server/public-api/public-reader.ts';
import { HOST_ERRORS } from '../../server/serving/host-errors.ts';
import { NGINX_MISSING, startNginx, type NginxHost } from '../helpers/nginx-host.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { startWrangler, type WranglerHost } from '../helpers/wrangler-host.ts';
import { startNetlify, type NetlifyHost } from '../helpers/netlify-host.ts';
import { listArticlesFor } from '../../server/read-model/selection.ts';

const CHANNEL = 'walk-news';
const ARTICLES = 260;
const LIST = `/api/public/v1/channels/${CHANNEL}/articles`;

let t: TestService;
let key: string;
let nginx: NginxHost | null = null;
let wrangler: WranglerHost | null = null;
let netlify: NetlifyHost | null = null;
const NETLIFY = 'Netlify (@netlify/dev)';
/**
 * What Netlify answers differently, because its rules cannot send a 422 or a JSON body: an error the
 * bundled server reports as 422 is Netlify's 404 page (docs/HOSTING.md lists the same).
 */
const netlifyStatus = (status: number) => (status === 422 ? 404 : status);
let serial = 0;

async function publish(slug: string, languages: readonly string[], title = slug): Promise<void> {
  t.clock.advance(60_000);
  const res = await t.request('POST', `/api/v1/channels/${CHANNEL}/pages`, {
    key,
    body: { slug, default_language: languages[0], status: 'published', translations: languages.map((language) => ({ language, title: `${title} (${language})`, content_markdown: `${title}.` })) },
  });
  expect(res.status, res.text).toBeLessThan(300);
}

async function unpublish(slug: string): Promise<void> {
  const res = await t.request('PATCH', `/api/v1/channels/${CHANNEL}/pages/${slug}/status`, { key, body: { status: 'draft', publish_translations: true } });
  expect(res.status, res.text).toBe(200);
}

/** Runs moderation and the incremental build, so the files show every change so far. */
async function settle(): Promise<void> {
  await t.service.worker.runDue();
  await t.service.staticSite!.builder.applyEvents();
}

/** The slugs of the list now, in order (the read model's own ordering). */
async function currentOrder(language: string | null): Promise<string[]> {
  const state = await t.service.staticSite!.builder.publicState();
  const channel = requireChannel(state, CHANNEL);
  return listArticlesFor(articlesOfChannel(state, channel.id), language).map((a) => a.slug);
}

/**
 * Waits (at most 30 s) until `base` answers `address` as the bundled server does: an emulator may take a
 * moment to see a build's files (its file watcher, on a loaded machine). The walk then asserts the answer.
 */
async function caughtUp(base: string, address: string): Promise<void> {
  if (base === t.url) return;
  const same = async () => {
    const [host, server] = await Promise.all([fetch(`${base}${address}`).then((r) => r.text()), fetch(`${t.url}${address}`).then((r) => r.text())]);
    return host === server;
  };
  // Past the wait, the assertion that follows shows what differs.
  await pollUntil(same, (equal) => equal, { what: `${base} to show the last build at ${address}`, timeoutMs: 30_000, intervalMs: 100 }).catch(() => undefined);
}

const pathOf = (url: string) => {
  const u = new URL(url, 'http://x');
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  // Every page is asked of a host and of the bundled server: its rate limit must not answer 429 here.
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '1000000' });
  key = t.service.newDevKey!;
  const channel = { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Walk News' }, { language: 'ar', title: 'أخبار المشي' }] };
  expect((await t.request('POST', '/api/v1/channels', { key, body: channel })).status).toBe(201);
  for (let i = 0; i < ARTICLES; i++) await publish(`walk-${i}`, i % 3 === 0 ? ['en', 'ar'] : ['en']);
  await settle();
  if (!NGINX_MISSING) nginx = await startNginx(t.config.outputDir);
  wrangler = await startWrangler(t.config.outputDir);
  netlify = await startNetlify(t.config.outputDir);
}, 300_000);

afterAll(async () => {
  await nginx?.stop();
  await wrangler?.stop();
  await netlify?.stop();
  await t?.stop();
});

if (NGINX_MISSING && process.env.CI) {
  it('needs nginx', () => {
    throw new Error(NGINX_MISSING ?? "nginx missing");
  });
}

const hosts: Array<[string, () => string | null]> = [
  ['the bundled server', () => t.url],
  ['nginx', () => nginx?.url ?? null],
  ['Cloudflare Pages (wrangler pages dev)', () => wrangler?.url ?? null],
  [NETLIFY, () => netlify?.url ?? null],
];

describe.each(hosts)('walking _links.next on %s', (name, baseOf) => {
  it.each([[null], ['ar']])('visits each article that stays published once, in order, while others come and go (lang %s)', async (language) => {
    const base = baseOf();
    if (!base) return; // nginx missing outside CI (reported above under CI)
    const expected = await currentOrder(language);
    expect(expected.length).toBeGreaterThan(language ? 80 : 250);
    const removedAhead = new Set<string>();
    const seen: string[] = [];
    try {
      let url: string | null = language ? `${LIST}?lang=${language}` : LIST;
      for (let step = 0; url !== null; step++) {
        expect(step, 'the walk does not end').toBeLessThan(60);
        const res = await fetch(`${base}${url}`);
        const text = await res.text();
        expect(res.status, `${name} ${url}: ${text}`).toBe(200);
        // What the host sent is the bundled server's answer to the same address.
        if (base !== t.url) expect(text, url).toBe(await (await fetch(`${t.url}${url}`)).text());
        const body = JSON.parse(text) as { articles: Array<{ slug: string; language: string }>; _links: { next: string | null }; pagination: { next_cursor: string | null; has_more: boolean } };
        for (const a of body.articles) if (language) expect(a.language).toBe(language);
        seen.push(...body.articles.map((a) => a.slug));
        url = body._links.next === null ? null : pathOf(body._links.next);
        expect(body.pagination.has_more).toBe(url !== null);
        if (url === null) break;
        // Between two pages: a new article (newer than the walk: never visited), the article the cursor names
        // withdrawn, one further down withdrawn before it is reached, one further down revised.
        serial++;
        await publish(`fresh-${serial}`, language ? ['en', language] : ['en']);
        await unpublish(seen[seen.length - 1]!);
        const ahead = expected.filter((s) => !seen.includes(s) && !removedAhead.has(s));
        if (step % 2 === 0 && ahead.length > 7) {
          await unpublish(ahead[7]!);
          removedAhead.add(ahead[7]!);
        }
        if (ahead.length > 3) {
          const res = await t.request('PUT', `/api/v1/channels/${CHANNEL}/pages/${ahead[3]}/translations/${language ?? 'en'}`, {
            key,
            body: { title: `${ahead[3]} revised ${serial}`, content_markdown: 'Revised.', status: 'published' },
          });
          expect(res.status, res.text).toBeLessThan(300);
        }
        await settle();
        await caughtUp(base, url);
      }
      expect(seen).toEqual(expected.filter((s) => !removedAhead.has(s)));
    } finally {
      // Put the withdrawn ones back for the next walk, also when this one failed: a failure stays this walk's own.
      for (const slug of [...seen, ...removedAhead]) {
        const res = await t.request('PATCH', `/api/v1/channels/${CHANNEL}/pages/${slug}/status`, { key, body: { status: 'published', publish_translations: true } });
        expect(res.status, res.text).toBe(200);
      }
      await settle();
    }
  }, 300_000);

  it('answers a cursor that names no page of the list with an error, never page 1', async () => {
    const base = baseOf();
    if (!base) return;
    await caughtUp(base, LIST);
    const first = (await (await fetch(`${base}${LIST}`)).json()) as { pagination: { next_cursor: string } };
    const cursor = first.pagination.next_cursor;
    const cases: Array<[string, number]> = [
      [`${LIST}?lang=ar&cursor=${cursor}`, 422], // the en list's cursor in the ar list
      [`${LIST}?cursor=${cursor.slice(0, -1)}x`, 422],
      [`${LIST}?cursor=not-a-cursor`, 422],
      [`${LIST}?cursor=`, 422],
      [`/api/public/v1/channels/no-such-channel/articles?cursor=${cursor}`, 404],
      [`${LIST}?lang=fr&cursor=${cursor}`, 404],
      [`${LIST}?limit=abc`, 422],
      [`${LIST}?limit=0`, 422],
    ];
    for (const [address, status] of cases) {
      const [host, server] = await Promise.all([fetch(`${base}${address}`), fetch(`${t.url}${address}`)]);
      expect(server.status, address).toBe(status);
      if (name === NETLIFY) {
        expect(host.status, `${name} ${address}`).toBe(netlifyStatus(status));
        // Never a list (the emulator sends "Not found" where Netlify sends the site's 404.html).
        expect(await host.text(), address).not.toContain('"articles"');
        continue;
      }
      expect(host.status, `${name} ${address}`).toBe(status);
      expect(host.headers.get('content-type'), address).toMatch(/^application\/json/);
      const [hostBody, serverBody] = [await host.json(), await server.json()];
      if (status === 422) expect(hostBody, address).toEqual(serverBody);
      else expect(hostBody.error.code, address).toMatch(/NOT_FOUND$/);
    }
  });

  it('answers ?limit= other than the default from files only on the bundled server; a static host says so', async () => {
    const base = baseOf();
    if (!base) return;
    await caughtUp(base, LIST);
    const res = await fetch(`${base}${LIST}?limit=5`);
    if (base === t.url) {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { articles: unknown[] }).articles).toHaveLength(5);
    } else if (name === NETLIFY) {
      expect(res.status).toBe(netlifyStatus(422));
    } else {
      expect(res.status).toBe(422);
      expect(await res.text()).toBe(HOST_ERRORS.limitNotOnHost);
    }
    // The default size spelled out is the default page.
    const spelled = await fetch(`${base}${LIST}?limit=20`);
    expect(`${spelled.status} ${await spelled.text()}`, `${name} ${LIST}?limit=20`).toBe(`200 ${await (await fetch(`${t.url}${LIST}`)).text()}`);
  });
});

describe('after the walks', () => {
  it('a full build of the same store writes and removes nothing: the incremental cursor pages are what a full build makes', async () => {
    const report = await t.service.staticSite!.builder.fullBuild();
    expect(report.changedPaths).toEqual([]);
    expect(report.written).toBe(0);
    expect(report.removed).toBe(0);
  }, 120_000);
});
