/**
 * Rate limits (rule 8) and the search endpoint's 503 over real HTTP: a
 * client over its per-minute budget gets 429 with Retry-After and the error
 * body; content and searches have separate budgets; X-Forwarded-For counts
 * only through the configured number of trusted proxies; search answers 503
 * with Retry-After until its index has been built once.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/main.ts';
import { createOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

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
