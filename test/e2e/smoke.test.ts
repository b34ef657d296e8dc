import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.stop());

it('creates a channel and a published article that reads back in moderation_review', async () => {
  const key = await t.key('ana');
  const channel = await t.request('POST', '/api/v1/channels', {
    key,
    body: { default_language: 'en', translations: [{ language: 'en', title: 'Tech News' }] },
  });
  expect(channel.status).toBe(201);
  expect(channel.json.slug).toBe('tech-news');
  const created = await t.request('POST', '/api/v1/channels/tech-news/pages', {
    key,
    body: {
      slug: 'hello',
      default_language: 'en',
      status: 'published',
      translations: [{ language: 'en', title: 'Hello', content_markdown: '## Hi\n\nText.' }],
    },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.json.status).toBe('moderation_review');
  const read = await t.request('GET', `/api/v1/channels/tech-news/pages/${created.json.id}`, { key });
  expect(read.json.status).toBe('moderation_review');
  expect(read.json.translation_status_summary.moderation_review).toEqual(['en']);
});
