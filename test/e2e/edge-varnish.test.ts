/**
 * `published` means readable at the edge (issue 35): a real Varnish (Debian,
 * with varnish-modules' xkey and the generated VCL) in front of the bundled
 * server, purged by the service after every build. Over 200 mixed publishes,
 * revisions, withdrawals, archivals and republications, run five at a time
 * so that purges are batched, every address is read through Varnish before
 * the change (so the old answer is cached) and again once the publishing API
 * reports the change: no answer may be stale. Nothing here measures time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { startVarnish, VARNISH_MISSING, type VarnishHost } from '../helpers/varnish-host.ts';
import { setPassword } from '../../server/domain/account/session.service.ts';

const CHANNEL = 'edge';
const ROUNDS = 42;
const AT_ONCE = 5;

let t: TestService;
let varnish: VarnishHost | null = null;
let key: string;

beforeAll(async () => {
  if (VARNISH_MISSING) return;
  const port = await freePort();
  varnish = await startVarnish(`127.0.0.1:${port}`);
  t = await startTestService(
    { PORT: String(port), PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0', PRESSROOM_PURGE_VARNISH_URL: varnish.url },
    { startWorker: true },
  );
  key = await t.key('edge', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Edge' }] } });
  expect(ch.status, ch.text).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await varnish?.stop();
});

if (VARNISH_MISSING && process.env.CI) {
  it('needs Varnish', () => {
    throw new Error(VARNISH_MISSING ?? 'varnish missing');
  });
}

type Op = 'publish' | 'revise' | 'withdraw' | 'archive' | 'republish';

/** What one article should look like to readers after an operation. */
interface Expected {
  readonly slug: string;
  readonly public: boolean;
  readonly title: string;
}

const page = (slug: string) => `/api/v1/channels/${CHANNEL}/pages/${slug}`;

/** Every reader address of an article and of the lists that name it, through Varnish. */
function addresses(slug: string): string[] {
  return [
    `/api/public/v1/channels/${CHANNEL}/articles/${slug}`,
    `/api/public/v1/channels/${CHANNEL}/articles/${slug}.md`,
    `/${CHANNEL}/${slug}`,
    `/${CHANNEL}/en/${slug}`,
    `/api/public/v1/channels/${CHANNEL}/articles`,
    `/api/public/v1/channels/${CHANNEL}/articles?limit=5`,
    `/${CHANNEL}/`,
    `/${CHANNEL}/feed.json`,
    `/`,
  ];
}

let hits = 0;

async function viaVarnish(address: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${varnish!.url}${address}`);
  const text = await res.text();
  // Varnish's X-Varnish names two transactions on a hit: the cache is in play.
  if ((res.headers.get('x-varnish') ?? '').includes(' ')) hits += 1;
  return { status: res.status, text };
}

/** Reads the article until the publishing API reports the operation done. */
async function reported(expected: Expected): Promise<void> {
  await pollUntil(
    async () => (await t.request('GET', page(expected.slug), { key })).json as { status: string; translations: Array<{ status: string; title: string; pending_revision: unknown }> },
    (a) => {
      const tr = a.translations[0]!;
      return expected.public ? tr.status === 'published' && tr.pending_revision === null && tr.title === expected.title : tr.status !== 'published';
    },
    { what: `${expected.slug} reported ${expected.public ? `published as "${expected.title}"` : 'withdrawn'}`, timeoutMs: 60_000, intervalMs: 5 },
  );
}

/** What is stale of an article's addresses, read through Varnish. */
async function stale(expected: Expected): Promise<string[]> {
  const found: string[] = [];
  const [json, md, page1, page2, list, small, channel, feed, home] = await Promise.all(addresses(expected.slug).map(viaVarnish));
  const label = (what: string) => `${expected.slug} (${expected.public ? `"${expected.title}"` : 'withdrawn'}): ${what}`;
  if (expected.public) {
    const title = json!.status === 200 ? (JSON.parse(json!.text) as { title: string }).title : null;
    if (title !== expected.title) found.push(label(`JSON ${json!.status} "${title}"`));
    if (md!.status !== 200 || !md!.text.includes(expected.title)) found.push(label(`Markdown ${md!.status}`));
    for (const p of [page1!, page2!]) if (p.status !== 200 || !p.text.includes(expected.title)) found.push(label(`page ${p.status}`));
  } else {
    for (const [what, answer] of [['JSON', json!], ['Markdown', md!], ['page', page1!], ['language page', page2!]] as const) {
      if (answer.status !== 404) found.push(label(`${what} ${answer.status}`));
    }
    const link = `/${CHANNEL}/${expected.slug}"`;
    for (const [what, answer] of [['list', list!], ['short list', small!], ['channel page', channel!], ['feed', feed!], ['homepage', home!]] as const) {
      if (answer.text.includes(`/articles/${expected.slug}"`) || answer.text.includes(link) || answer.text.includes(`/${CHANNEL}/en/${expected.slug}"`)) found.push(label(`still in the ${what}`));
    }
  }
  // Every address answers through Varnish exactly what the server answers (lists, feeds, pages around it).
  const origin = await Promise.all(addresses(expected.slug).map(async (a) => {
    const res = await fetch(`${t.url}${a}`);
    return { status: res.status, text: await res.text() };
  }));
  const cached = [json!, md!, page1!, page2!, list!, small!, channel!, feed!, home!];
  addresses(expected.slug).forEach((address, i) => {
    if (cached[i]!.status !== origin[i]!.status || cached[i]!.text !== origin[i]!.text) found.push(label(`${address}: Varnish ${cached[i]!.status}, the server ${origin[i]!.status}${cached[i]!.status === origin[i]!.status ? ' (other bytes)' : ''}`));
  });
  return found;
}

describe.skipIf(VARNISH_MISSING !== null)('Varnish in front of the bundled server, purged by tag', () => {
  it(`${ROUNDS * AT_ONCE} mixed changes, ${AT_ONCE} at a time: once reported, no answer through Varnish is stale`, async () => {
    // The articles and what each is now.
    const state = new Map<string, { public: boolean; archived: boolean; revision: number }>();
    const failures: string[] = [];
    let ops = 0;
    let next = 0;
    const requestsBefore = t.service.edge!.stats().requests;
    for (let round = 0; round < ROUNDS; round++) {
      // Five distinct articles per round: new ones, and existing ones in each state.
      const chosen: Array<{ slug: string; op: Op }> = [];
      const existing = [...state.keys()].filter((s) => !chosen.some((c) => c.slug === s));
      for (let i = 0; i < AT_ONCE; i++) {
        const pick = existing.splice((round * 7 + i * 3) % Math.max(1, existing.length), 1)[0];
        const s = pick ? state.get(pick)! : undefined;
        if (!pick || !s || (round + i) % 6 === 0) chosen.push({ slug: `a${next++}`, op: 'publish' });
        else if (!s.public) chosen.push({ slug: pick, op: 'republish' });
        else chosen.push({ slug: pick, op: (['revise', 'revise', 'withdraw', 'archive'] as const)[(round + i) % 4]! });
      }
      // The old answers, cached.
      for (const c of chosen) if (state.has(c.slug)) await Promise.all(addresses(c.slug).map(viaVarnish));
      const expected = await Promise.all(
        chosen.map(async ({ slug, op }): Promise<Expected> => {
          const s = state.get(slug) ?? { public: false, archived: false, revision: 0 };
          let res;
          if (op === 'publish') {
            res = await t.request('POST', `/api/v1/channels/${CHANNEL}/pages`, {
              key,
              body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `${slug} r0`, content_markdown: `Body of ${slug}.` }] },
            });
          } else if (op === 'revise') {
            res = await t.request('PUT', `${page(slug)}/translations/en`, { key, body: { title: `${slug} r${s.revision + 1}`, content_markdown: `Body of ${slug}, revision ${s.revision + 1}.` } });
            s.revision += 1;
          } else if (op === 'withdraw' || op === 'archive') {
            res = await t.request('PATCH', `${page(slug)}/status`, { key, body: { status: op === 'withdraw' ? 'draft' : 'archived' } });
          } else {
            res = await t.request('PATCH', `${page(slug)}/status`, { key, body: { status: 'published', publish_translations: true } });
          }
          expect(res.status, `${op} ${slug}: ${res.text}`).toBeLessThan(300);
          s.public = op === 'publish' || op === 'revise' || op === 'republish';
          s.archived = op === 'archive';
          state.set(slug, s);
          ops += 1;
          return { slug, public: s.public, title: `${slug} r${s.revision}` };
        }),
      );
      for (const e of expected) await reported(e);
      for (const e of expected) failures.push(...(await stale(e)));
    }
    expect(failures).toEqual([]);
    expect(ops).toBeGreaterThanOrEqual(200);
    // The cache was in play: old answers were served from it before their purge.
    expect(hits).toBeGreaterThan(ops);
    // Batched: at most one purge request per change on average.
    const requests = t.service.edge!.stats().requests - requestsBefore;
    expect(requests).toBeGreaterThan(0);
    expect(requests / ops).toBeLessThanOrEqual(1);
    console.log(`edge: ${ops} changes, ${requests} purge requests, ${hits} cache hits`);
  }, 600_000);

  it('tags every answer, and Varnish keeps them from readers', async () => {
    const direct = await fetch(`${t.url}/${CHANNEL}/`);
    await direct.body?.cancel();
    expect(direct.headers.get('surrogate-key')).toBe(`pressroom pressroom:f:/${CHANNEL}/index.html`);
    const through = await fetch(`${varnish!.url}/${CHANNEL}/`);
    await through.body?.cancel();
    expect(through.headers.get('xkey')).toBeNull();
    const refused = await fetch(`${varnish!.url}/`, { method: 'PURGE' });
    expect(refused.status).toBe(400);
  });

  it('passes the dashboard through with its cookie, never from the cache', async () => {
    await setPassword({ db: t.service.db, clock: t.clock }, 'edge', 'a long enough password');
    const login = await fetch(`${varnish!.url}/dashboard/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: varnish!.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'account=edge&password=a+long+enough+password',
    });
    expect(login.status).toBe(303);
    const token = /__Host-pressroom_session=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1];
    expect(token).toBeDefined();
    for (let i = 0; i < 2; i++) {
      const home = await fetch(`${varnish!.url}/dashboard`, { headers: { cookie: `__Host-pressroom_session=${token}` }, redirect: 'manual' });
      expect(home.status).toBe(200);
      expect(await home.text()).toContain(`/dashboard/channels/${CHANNEL}`);
      expect(home.headers.get('x-varnish') ?? '').not.toContain(' ');
    }
    const signedOut = await fetch(`${varnish!.url}/dashboard`, { redirect: 'manual' });
    await signedOut.body?.cancel();
    expect(signedOut.status).toBe(303);
  });
});
