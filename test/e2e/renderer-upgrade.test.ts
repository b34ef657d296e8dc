/**
 * A database whose bodies an older renderer made (an upgrade that changed
 * `BODY_RENDER_VERSION`): the next start renders them again and keeps them
 * once, logging it, before it serves (issue 33: reads never write, so
 * this is where an upgrade pays for the new renderer).
 */
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody } from '../../server/domain/body/index.ts';
import { RENDERINGS_STAMP_KEY } from '../../server/domain/article/refresh-renderings.ts';
import { createLogger } from '../../server/logger.ts';
import { startService } from '../../server/main.ts';
import { openDatabase } from '../../server/store/database.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const BODY = 'An *upgraded* body with a [link](../elsewhere).';
let first: TestService | undefined;
afterAll(() => first && fs.rmSync(first.dir, { recursive: true, force: true }));

it('renders bodies of an older renderer again at start, once, logging it, before it serves them', async () => {
  first = await startTestService();
  const key = await first.key('ana', 'pro');
  expect((await first.request('POST', '/api/v1/channels', { key, body: { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] } })).status).toBe(201);
  const created = await first.request('POST', '/api/v1/channels/news/pages', { key, body: { slug: 'one', default_language: 'en', translations: [{ language: 'en', title: 'One', content_markdown: BODY }] } });
  expect(created.status).toBe(201);
  await first.service.stop();
  // What the older renderer left.
  const old = { content_html: '<p>old</p>', content_text: 'old', body_version: 'old' };

  const lines: string[] = [];
  const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', PRESSROOM_DATA_DIR: first.config.dataDir, PRESSROOM_OUTPUT_DIR: first.config.outputDir, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_STATIC_BUILD: 'false' }, first.dir);
  const before = openDatabase(config.databaseFile);
  await before.updateTable('article_translations').set(old).execute();
  // An older version recorded the renderings complete for its own renderer, not for this one.
  await before.updateTable('instance_settings').set({ value: 'renderer old, 20 migrations' }).where('key', '=', RENDERINGS_STAMP_KEY).execute();
  await before.destroy();

  const again = await startService(config, { log: createLogger('info', 'pressroom', (line) => lines.push(line)), startWorker: false });
  try {
    expect(lines.filter((l) => l.includes('bodies'))).toEqual([
      expect.stringMatching(/rendering bodies again bodies=1 renderer=/),
      expect.stringMatching(/rendering bodies again done=1 of=1/),
      expect.stringMatching(/bodies rendered again translations=1 revisions=0/),
    ]);
    const rows = () => again.db.selectFrom('article_translations').select(['content_html', 'content_text', 'body_version', 'link_targets']).execute();
    const body = renderMarkdownBody(BODY);
    expect(await rows()).toEqual([{ content_html: body.html, content_text: body.text, body_version: BODY_RENDER_VERSION, link_targets: body.links }]);
    const read = await fetch(`${again.url}/api/v1/channels/news/pages/one`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await read.json()) as { translations: Array<{ content_html: string }> }).translations[0]!.content_html).toBe(body.html);
  } finally {
    await again.stop();
  }
});
