/**
 * Issue 18, over real HTTP: the moderation job judges a large body on a body
 * thread, so the server goes on answering while it runs, and decides as the
 * rules say.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectReadsDuring } from '../helpers/reads-during.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
let rulesDir: string;

// Within every body limit (emphasis and brackets per body among them), yet seconds of parsing for the policy; the blocked term comes last.
const LARGE_MARKDOWN = `${`${'word *x* and [y](https://ok.example/) '.repeat(4)}${'plain words here '.repeat(20).trim()}\n\n`.repeat(1_200)}The end: zzblockmarker.`;

beforeAll(async () => {
  rulesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-rules-'));
  const rules = path.join(rulesDir, 'rules.json');
  fs.writeFileSync(rules, JSON.stringify({ blocked_terms: ['zzblockmarker'] }));
  // A generous time limit: saving and judging this body must both finish.
  t = await startTestService({ PRESSROOM_MODERATION_FILE: rules, PRESSROOM_BODY_WORKERS: '1', PRESSROOM_BODY_TIME_LIMIT_MS: '60000' });
  key = await t.key('large', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'large', default_language: 'en', translations: [{ language: 'en', title: 'Large' }] } });
  expect(ch.status, ch.text).toBe(201);
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(rulesDir, { recursive: true, force: true });
});

describe('moderating a large body', () => {
  it('runs off the main thread: reads are answered promptly meanwhile, and the decision is the rules\'', async () => {
    const res = await t.request('POST', '/api/v1/channels/large/pages', {
      key,
      body: { slug: 'large', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Large', content_markdown: LARGE_MARKDOWN }] },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);

    await expectReadsDuring(t, key, 'moderation', () => t.service.worker.runDue());
    const article = (await t.request('GET', '/api/v1/channels/large/pages/large', { key })).json;
    expect(article).toMatchObject({ status: 'draft', moderation: 'blocked' });
    const revision = await t.service.db.selectFrom('revisions').select(['moderation_state', 'moderation_reason']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(revision).toEqual({ moderation_state: 'blocked', moderation_reason: 'blocked_term: "zzblockmarker" in content_markdown' });
  });
});
