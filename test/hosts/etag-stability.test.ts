/**
 * A build with nothing new changes no file (issue 34): after `npm run build`
 * beside the running server, every file in `dist/` has the mtime, size and
 * inode it had, the search bundles' included (Pagefind writes every file of
 * a bundle again; the indexer keeps those whose bytes did not change), so
 * nginx, whose ETag is the file's mtime and size, answers every address
 * with the ETag it had and readers' caches stay valid.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NGINX_MISSING, startNginx, type NginxHost } from '../helpers/nginx-host.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let t: TestService;
let nginx: NginxHost | null = null;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true' });
  const key = t.service.newDevKey!;
  const channel = { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }, { language: 'ar', title: 'أخبار' }] };
  expect((await t.request('POST', '/api/v1/channels', { key, body: channel })).status).toBe(201);
  for (let i = 0; i < 12; i++) {
    t.clock.advance(60_000);
    const translations = [{ language: 'en', title: `Story ${i}`, content_markdown: `The tide came in at ${i}.\n\n## Notes\n\nA second paragraph.` }];
    if (i % 3 === 0) translations.push({ language: 'ar', title: `قصة ${i}`, content_markdown: 'جاء المد.' });
    const res = await t.request('POST', '/api/v1/channels/news/pages', { key, body: { slug: `story-${i}`, default_language: 'en', status: 'published', translations } });
    expect(res.status, res.text).toBe(201);
  }
  await t.service.worker.runDue();
  // Everything the server does about these writes, done: its builds go through its queue, which asks for the
  // search rebuilds (a build called directly would leave the search index to the next full rebuild).
  await t.service.staticSite!.queue.settle(60_000);
  await t.service.staticSite!.search.idle();
  if (!NGINX_MISSING) nginx = await startNginx(t.config.outputDir);
}, 300_000);

afterAll(async () => {
  await nginx?.stop();
  await t?.stop();
});

/** Every file of the output with what nginx's ETag is made of (and the inode: a rename in place shows too). */
function fileStamps(dir: string): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file, { bigint: true });
    stamps.set(path.relative(dir, file), `${stat.mtimeNs}:${stat.size}:${stat.ino}`);
  }
  return stamps;
}

async function etags(addresses: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const address of addresses) {
    const res = await fetch(`${nginx!.url}${address}`);
    expect(res.status, address).toBe(200);
    await res.arrayBuffer();
    found.set(address, res.headers.get('etag'));
  }
  return found;
}

it('npm run build with nothing new leaves every file of dist/, and every ETag nginx sends, as it was', async () => {
  const dist = t.config.outputDir;
  const before = fileStamps(dist);
  expect([...before.keys()].filter((f) => f.startsWith('pagefind/')).length).toBeGreaterThan(10);
  const addresses = ['/', '/news/', '/news/story-3', '/news/ar/story-3', '/news/rss.xml', '/api/public/v1/channels/news/articles', '/api/public/v1/channels/news/articles/story-3.md', '/sitemap.xml', '/llms.txt',
    ...[...before.keys()].filter((f) => f.startsWith('pagefind/')).map((f) => `/${f}`)];
  const tagsBefore = nginx ? await etags(addresses) : null;

  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      PRESSROOM_DATA_DIR: t.config.dataDir,
      PRESSROOM_OUTPUT_DIR: dist,
      PRESSROOM_PUBLIC_URL: t.config.publicUrl,
      PRESSROOM_IMPORT_CONTENT: 'false',
      PRESSROOM_LOG_LEVEL: 'info',
    },
  });
  expect(build.status, build.stderr).toBe(0);
  expect(build.stderr).toMatch(/full build done written=0 /);

  const after = fileStamps(dist);
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
  expect(changed).toEqual([]);
  if (tagsBefore) expect(await etags(addresses)).toEqual(tagsBefore);
}, 180_000);

if (NGINX_MISSING && process.env.CI) {
  it('needs nginx', () => {
    throw new Error(NGINX_MISSING ?? 'nginx missing');
  });
}
