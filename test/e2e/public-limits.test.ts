/**
 * Rate limits (rule 8) and the search endpoint's 503 over real HTTP: a
 * client over its per-minute budget gets 429 with Retry-After and the error
 * body; content and searches have separate budgets; X-Forwarded-For counts
 * only through the configured number of trusted proxies; search answers 503
 * with Retry-After until its index has been built once.
 */
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const API = '/api/public/v1';
let t: TestService;
let openapi: OpenApiValidator;

const get = (address: string, headers: Record<string, string> = {}) => fetch(`${t.url}${address}`, { headers });

beforeAll(async () => {
  openapi = createOpenApiValidator(path.join(PROJECT_ROOT, 'docs/openapi/public-content-api.yaml'));
  t = await startTestService(
    {
      PRESSROOM_STATIC_BUILD: 'true',
      PRESSROOM_IMPORT_CONTENT: 'true',
      PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content'),
      PRESSROOM_RATE_LIMIT_CONTENT: '5',
      PRESSROOM_RATE_LIMIT_SEARCH: '3',
      PRESSROOM_TRUST_PROXY_HOPS: '1',
    },
    { syncSearchIndex: false },
  );
}, 180_000);
afterAll(async () => t?.stop());

/** Requests from one client address, as the trusted proxy reports it. */
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('search before its index exists', () => {
  it('is 503 with Retry-After and the error body, then answers once the index is built', async () => {
    const res = await get(`${API}/search?q=welcome`, from('10.0.0.50'));
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = await res.json();
    expect(body).toMatchObject({ schema_version: '1.0', error: { code: 'SEARCH_UNAVAILABLE' } });
    expect(openapi.validateResponse('get', '/search', 503, body)).toEqual([]);
    await t.service.searchIndex!.syncAll();
    const after = await get(`${API}/search?q=welcome`, from('10.0.0.50'));
    expect(after.status).toBe(200);
    expect((await after.json()).results.length).toBeGreaterThan(0);
  });
});

describe('content requests', () => {
  it('allows the budget, then answers 429 with Retry-After and the error body', async () => {
    const client = from('10.0.0.1');
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(`${API}/channels/pressroom-journal`, client);
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    for (const [address, template] of [
      [`${API}/channels?limit=2`, '/channels'],
      [`${API}/channels/pressroom-journal`, '/channels/{channel_slug}'],
      [`${API}/channels/pressroom-journal/articles`, '/channels/{channel_slug}/articles'],
      [`${API}/channels/pressroom-journal/articles/welcome`, '/channels/{channel_slug}/articles/{article_slug}'],
      [`${API}/channels/pressroom-journal/articles/welcome.md`, '/channels/{channel_slug}/articles/{article_slug}.md'],
    ] as const) {
      const res = await get(address, client);
      expect(res.status, address).toBe(429);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      const body = await res.json();
      expect(body).toMatchObject({ schema_version: '1.0', error: { code: 'RATE_LIMITED', message: expect.stringContaining('Retry-After') } });
      expect(openapi.validateResponse('get', template, 429, body)).toEqual([]);
    }
  });

  it('counts each client address on its own', async () => {
    expect((await get(`${API}/channels/pressroom-journal`, from('10.0.0.2'))).status).toBe(200);
  });

  it('trusts only the entry the trusted proxy added (the rightmost one)', async () => {
    // The client claims other addresses to the left; the proxy appends the real one.
    for (let i = 0; i < 5; i++) expect((await get(`${API}/channels`, from(`192.0.2.${i}, 10.0.0.3`))).status).toBe(200);
    expect((await get(`${API}/channels`, from('192.0.2.99, 10.0.0.3'))).status).toBe(429);
  });

  it('leaves pages and media outside the API alone', async () => {
    expect((await get('/pressroom-journal/', from('10.0.0.1'))).status).toBe(200);
  });
});

describe('every spelling of an address (issue 18: percent-encoding skipped the limiter)', () => {
  /** A GET with the request target sent exactly as written (fetch would resolve dot segments first). */
  const rawGet = (target: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(t.url);
      const req = http.request({ hostname, port, path: target, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject).end();
    });

  it.each([
    ['the canonical spelling', `${API}/channels/pressroom-journal`, 1],
    ['an encoded first segment', '/%61pi/public/v1/channels/pressroom-journal', 2],
    ['encoded letters throughout', '/%61%70%69/%70ublic/v1/%63hannels/pressroom-journa%6C', 3],
    ['lower-case escapes of the last letter', `${API}/channels/pressroom-journa%6c`, 4],
  ])('%s shares the one budget and answers the same', async (_what, spelling, n) => {
    const client = from(`10.0.1.${n}`);
    const canonical = await get(`${API}/channels/pressroom-journal`, client);
    expect(canonical.status).toBe(200);
    const same = await get(spelling, client);
    expect(same.status).toBe(200);
    expect(await same.text()).toBe(await canonical.text());
    for (let i = 0; i < 3; i++) expect((await get(spelling, client)).status).toBe(200);
    // Five in all: the next one is refused in either spelling.
    expect((await get(spelling, client)).status).toBe(429);
    expect((await get(`${API}/channels/pressroom-journal`, client)).status).toBe(429);
  });

  it('honours limit and cursor in every spelling', async () => {
    const canonical = await (await get(`${API}/channels?limit=1`, from('10.0.2.1'))).json();
    const encoded = await (await get('/%61pi/public/v1/%63hannels?limit=1', from('10.0.2.2'))).json();
    expect(encoded).toEqual(canonical);
    expect(encoded.channels ?? encoded.items).toHaveLength(1);
    const bad = await get('/%61pi/public/v1/channels?cursor=not-a-cursor', from('10.0.2.3'));
    expect(bad.status).toBe((await get(`${API}/channels?cursor=not-a-cursor`, from('10.0.2.4'))).status);
    expect(bad.status).toBeGreaterThanOrEqual(400);
  });

  it.each([
    ['another letter case of the prefix', `/API/public/v1/channels`],
    ['an encoded slash', `${API}/channels%2Fpressroom-journal`],
    ['a dot segment', `${API}/x/../channels`],
    ['an encoded dot segment', `${API}/x/%2e%2e/channels`],
    ['an empty segment', `/api//public/v1/channels`],
    ['an encoded backslash', `${API}/x%5C..%5Cchannels`],
  ])('refuses %s with a 404, never a 200 past the limiter', async (_what, target) => {
    const res = await rawGet(target, from('10.0.3.1'));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('searches', () => {
  it('have a budget of their own', async () => {
    const client = from('10.0.0.1'); // over its content budget already
    for (let i = 0; i < 3; i++) expect((await get(`${API}/search?q=welcome`, client)).status).toBe(200);
    const res = await get(`${API}/search?q=welcome`, client);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = await res.json();
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(openapi.validateResponse('get', '/search', 429, body)).toEqual([]);
  });
});
