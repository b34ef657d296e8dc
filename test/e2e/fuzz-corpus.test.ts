/**
 * The fuzz corpus (`test/corpora/fuzz-requests.ts`, ~800 requests) against
 * every route of both APIs over real HTTP: no answer is ≥ 500, and every
 * JSON error has the documented shape (issue 18: "0 answers ≥ 500").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorShapeProblems } from '../corpora/error-shape.ts';
import { fuzzRequests, type FuzzFixture } from '../corpora/fuzz-requests.ts';
import { rawClient } from '../helpers/raw-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let fixture: FuzzFixture;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0', PRESSROOM_RATE_LIMIT_SEARCH: '0' });
  const key = await t.key('fuzzer', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'fz', default_language: 'en', translations: [{ language: 'en', title: 'Fuzz' }] } });
  expect(ch.status, ch.text).toBe(201);
  const article = await t.request('POST', '/api/v1/channels/fz/pages', {
    key,
    body: { slug: 'fz-article', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Fuzzed', content_markdown: 'Body.' }] },
  });
  expect(article.status, article.text).toBe(201);
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
  fixture = { key, channel: 'fz', article: 'fz-article', articleId: article.json.id };
});
afterAll(async () => t?.stop());

it('answers every fuzzed request below 500, with the documented error body', async () => {
  const requests = fuzzRequests(fixture);
  expect(requests.length).toBeGreaterThan(750);
  const client = rawClient(t.url, 6);
  const responses = await client.sendAll(requests);
  client.close();
  const failures: string[] = [];
  responses.forEach((res, i) => {
    const request = requests[i]!;
    const problems: string[] = [];
    if (res instanceof Error) problems.push(`no answer: ${res.message}`);
    else {
      if (res.status >= 500) problems.push(`status ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
      const isApi = request.path.startsWith('/api/');
      if (res.status >= 400 && isApi && request.method !== 'HEAD') {
        let body: unknown;
        try {
          body = JSON.parse(res.body.toString('utf8'));
        } catch {
          problems.push(`a ${res.status} without a JSON body: ${res.body.toString('utf8').slice(0, 100)}`);
        }
        if (body !== undefined) problems.push(...errorShapeProblems(res.status, body).map((p) => `${res.status}: ${p}`));
      }
    }
    if (problems.length) failures.push(`${request.name} → ${problems.join('; ')}`);
  });
  expect(failures).toEqual([]);
  // The service still works after the corpus: the article reads back, the public API answers.
  expect((await t.request('GET', `/api/v1/channels/fz/pages/${fixture.article}`, { key: fixture.key })).status).toBe(200);
  expect((await t.request('GET', '/api/v1/channels/fz/pages', { key: fixture.key })).status).toBe(200);
  expect((await t.request('GET', '/api/public/v1/channels/fz')).status).toBe(200);
}, 120_000);
