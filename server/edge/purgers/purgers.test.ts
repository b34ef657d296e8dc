/**
 * The CDN adapters against their documented request shapes, limits and
 * batching, with every request recorded by a loopback server: Cloudflare,
 * Fastly and CloudFront cannot run here (docs/HOSTING.md, "CDN and object
 * storage"); Varnish is tested for real in test/e2e/edge-varnish.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRecorder, type RequestRecorder } from '../../../test/helpers/request-recorder.ts';
import { batches, EdgeFailure, type PurgeRequest } from '../purger.ts';
import { cloudflarePurger, CLOUDFLARE_TAGS_PER_REQUEST } from './cloudflare.ts';
import { cloudfrontPurger, invalidationPaths } from './cloudfront.ts';
import { fastlyPurger, FASTLY_KEYS_PER_REQUEST } from './fastly.ts';
import { varnishPurger } from './varnish.ts';
import { webhookPurger, webhookSignature } from './webhook.ts';

let recorder: RequestRecorder | null = null;
afterEach(async () => {
  await recorder?.stop();
  recorder = null;
});

const tags = (n: number) => Array.from({ length: n }, (_, i) => `pressroom:f:/news/article-${String(i).padStart(4, '0')}.html`);
const request = (n: number): PurgeRequest => ({ tags: tags(n), paths: [], everything: false });
const ZONE = '0123456789abcdef0123456789abcdef';

describe('batches', () => {
  it.each([
    [0, 100, []],
    [1, 100, [1]],
    [100, 100, [100]],
    [101, 100, [100, 1]],
    [250, 100, [100, 100, 50]],
  ])('%i items by %i: %j', (n, size, sizes) => {
    expect(batches(tags(n), size).map((b) => b.length)).toEqual(sizes);
  });

  it('keeps each batch within a character budget', () => {
    const groups = batches(tags(300), Number.POSITIVE_INFINITY, 1_000);
    expect(groups.flat()).toEqual(tags(300));
    for (const g of groups) expect(g.join(' ').length).toBeLessThanOrEqual(1_000);
  });
});

describe('Cloudflare', () => {
  it('purges by tag, 100 tags a request, with the zone and the token', async () => {
    recorder = await startRecorder(() => ({ body: JSON.stringify({ success: true, errors: [], messages: [], result: { id: ZONE } }) }));
    const purger = cloudflarePurger({ zone: ZONE, token: 'secret-token', api: recorder.url });
    expect(await purger.purge(request(250))).toBe(3);
    expect(recorder.requests.map((r) => [r.method, r.url])).toEqual(Array(3).fill(['POST', `/zones/${ZONE}/purge_cache`]));
    const bodies = recorder.requests.map((r) => JSON.parse(r.body) as { tags: string[] });
    expect(bodies.map((b) => b.tags.length)).toEqual([CLOUDFLARE_TAGS_PER_REQUEST, CLOUDFLARE_TAGS_PER_REQUEST, 50]);
    expect(bodies.flatMap((b) => b.tags)).toEqual(tags(250));
    expect(recorder.requests[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(recorder.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('purges everything only when told to', async () => {
    recorder = await startRecorder(() => ({ body: JSON.stringify({ success: true }) }));
    await cloudflarePurger({ zone: ZONE, token: 't', api: recorder.url }).purge({ tags: ['pressroom'], paths: [], everything: true });
    expect(JSON.parse(recorder.requests[0]!.body)).toEqual({ purge_everything: true });
  });

  it('a refusal, a 200 with success false, and a 429 with Retry-After are failures that say so', async () => {
    recorder = await startRecorder(() => ({ status: 403, body: JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] }) }));
    const purger = cloudflarePurger({ zone: ZONE, token: 't', api: recorder.url });
    await expect(purger.purge(request(1))).rejects.toThrow(/cloudflare: 403 .*Authentication error/);
    recorder.answer(() => ({ body: JSON.stringify({ success: false, errors: [{ message: 'Invalid tag' }] }) }));
    await expect(purger.purge(request(1))).rejects.toThrow(/purge refused: Invalid tag/);
    recorder.answer(() => ({ status: 429, headers: { 'retry-after': '30' }, body: '{}' }));
    const failure = await purger.purge(request(1)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EdgeFailure);
    expect((failure as EdgeFailure).retryAfterMs).toBe(30_000);
  });
});

describe('Fastly', () => {
  it('purges surrogate keys, 256 a request, hard', async () => {
    recorder = await startRecorder(() => ({ body: '{"status":"ok"}' }));
    const purger = fastlyPurger({ service: 'SU1Z0isxPaozGVKXdv0eY', token: 'fastly-token', api: recorder.url });
    expect(await purger.purge(request(600))).toBe(3);
    expect(recorder.requests.map((r) => [r.method, r.url])).toEqual(Array(3).fill(['POST', '/service/SU1Z0isxPaozGVKXdv0eY/purge']));
    const keys = recorder.requests.map((r) => String(r.headers['surrogate-key']).split(' '));
    expect(keys.map((k) => k.length)).toEqual([FASTLY_KEYS_PER_REQUEST, FASTLY_KEYS_PER_REQUEST, 88]);
    expect(keys.flat()).toEqual(tags(600));
    expect(recorder.requests[0]!.headers['fastly-key']).toBe('fastly-token');
    expect(recorder.requests[0]!.headers['fastly-soft-purge']).toBeUndefined();
  });

  it('purges everything with purge_all', async () => {
    recorder = await startRecorder();
    await fastlyPurger({ service: 'S', token: 't', api: recorder.url }).purge({ tags: ['pressroom'], paths: [], everything: true });
    expect(recorder.requests.map((r) => r.url)).toEqual(['/service/S/purge_all']);
  });
});

describe('CloudFront', () => {
  const xml = (id: string, status: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>${id}</Id><Status>${status}</Status><CreateTime>2026-11-28T00:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>1</Quantity><Items><Path>/x</Path></Items></Paths><CallerReference>r</CallerReference></InvalidationBatch></Invalidation>`;

  it('names one wildcard per channel and one path per site file', () => {
    expect(
      invalidationPaths([
        'news/hello.html',
        'news/de/hello.html',
        'api/public/v1/channels/news/articles.json',
        'api/public/v1/channels/news/articles/hello.md',
        'index.html',
        'sitemap.xml',
        'api/public/v1/channels.json',
        'api/public/v1/channels/_lang/de.json',
        'search/de/index.html',
        '_404/de.html',
        '404.html',
      ]),
    ).toEqual(['/', '/api/public/v1/channels*', '/api/public/v1/channels/news*', '/news/*', '/search/de/', '/sitemap.xml']);
  });

  it('creates one invalidation and waits until CloudFront reports it completed', async () => {
    let polls = 0;
    recorder = await startRecorder((r) =>
      r.method === 'POST'
        ? { status: 201, headers: { 'content-type': 'text/xml', location: 'https://cloudfront.amazonaws.com/2020-05-31/distribution/E1/invalidation/I1' } as Record<string, string>, body: xml('I1', 'InProgress') }
        : { headers: { 'content-type': 'text/xml' }, body: xml('I1', ++polls < 2 ? 'InProgress' : 'Completed') },
    );
    const purger = cloudfrontPurger({ distribution: 'E1ABCDEF', endpoint: recorder.url, pollMs: 1, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
    const requests = await purger.purge({ tags: [], paths: ['news/hello.html', 'index.html'], everything: false });
    expect(requests).toBe(3);
    const [create, ...gets] = recorder.requests;
    expect([create!.method, create!.url]).toEqual(['POST', '/2020-05-31/distribution/E1ABCDEF/invalidation']);
    expect(create!.body).toContain('<Quantity>3</Quantity>');
    for (const path of ['/', '/news/*', '/api/public/v1/channels/news*']) expect(create!.body).toContain(`<Path>${path}</Path>`);
    expect(String(create!.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    expect(gets.map((g) => [g.method, g.url])).toEqual(Array(2).fill(['GET', '/2020-05-31/distribution/E1ABCDEF/invalidation/I1']));
  });

  it('a refusal (too many invalidations in progress) is a failure, retried later', async () => {
    recorder = await startRecorder(() => ({
      status: 400,
      headers: { 'content-type': 'text/xml' },
      body: '<?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type><Code>TooManyInvalidationsInProgress</Code><Message>Processing your request will cause you to exceed the maximum number of in-progress wildcard invalidations.</Message></Error></ErrorResponse>',
    }));
    const purger = cloudfrontPurger({ distribution: 'E1', endpoint: recorder.url, pollMs: 1, credentials: { accessKeyId: 'A', secretAccessKey: 'S' } });
    await expect(purger.purge({ tags: [], paths: ['news/a.html'], everything: false })).rejects.toThrow(/cloudfront: invalidation refused: TooManyInvalidationsInProgress/);
  });
});

describe('Varnish', () => {
  it('sends PURGE with the tags in xkey-purge, within the header budget', async () => {
    recorder = await startRecorder();
    const requests = await varnishPurger(recorder.url).purge(request(200));
    expect(requests).toBe(recorder.requests.length);
    expect(requests).toBeGreaterThan(1);
    for (const r of recorder.requests) {
      expect([r.method, r.url]).toEqual(['PURGE', '/']);
      expect(String(r.headers['xkey-purge']).length).toBeLessThanOrEqual(6_000);
    }
    expect(recorder.requests.flatMap((r) => String(r.headers['xkey-purge']).split(' '))).toEqual(tags(200));
  });

  it('no answer is a failure naming the address', async () => {
    recorder = await startRecorder();
    const url = recorder.url;
    await recorder.stop();
    recorder = null;
    await expect(varnishPurger(url).purge(request(1))).rejects.toThrow(/varnish: no answer from http:\/\/127\.0\.0\.1/);
  });
});

describe('webhook', () => {
  it('posts the tags and paths, signed over the timestamp and the body', async () => {
    recorder = await startRecorder(() => ({ status: 204 }));
    const now = new Date('2026-11-28T00:00:00Z');
    await webhookPurger({ url: `${recorder.url}/hooks/purge`, secret: 'a-secret-of-16-chars', now: () => now }).purge({ tags: ['pressroom:f:/index.html'], paths: ['index.html'], everything: false });
    const [r] = recorder.requests;
    expect([r!.method, r!.url]).toEqual(['POST', '/hooks/purge']);
    expect(JSON.parse(r!.body)).toEqual({ schema_version: '1.0', event: 'purge', everything: false, tags: ['pressroom:f:/index.html'], paths: ['/index.html'], paths_truncated: false });
    const timestamp = Number(r!.headers['x-pressroom-timestamp']);
    expect(timestamp).toBe(now.getTime() / 1000);
    expect(r!.headers['x-pressroom-signature']).toBe(webhookSignature('a-secret-of-16-chars', timestamp, r!.body));
    expect(webhookSignature('a-secret-of-16-chars', timestamp, r!.body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});
