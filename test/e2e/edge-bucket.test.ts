/**
 * Continuous deploys to object storage (issue 35): a real S3-compatible
 * server (s3rver, in process) as the bucket. After a series of incremental
 * builds (publishes with an image, translations, revisions, withdrawals,
 * archivals) and after a SIGKILL of the real service in the middle of a
 * deploy followed by a restart, the bucket equals the output folder: every
 * key, its bytes, content type, cache policy and cache tags; and only then
 * is an article reported published.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKET_UPLOAD_CONCURRENCY } from '../../server/edge/bucket/bucket-sync.ts';
import { cacheTagHeaders, tagsOfFile } from '../../server/serving/cache-tags.ts';
import { cacheControlOfFile } from '../../server/serving/cache-policy.ts';
import { contentTypeOf } from '../../server/serving/content-types.ts';
import { TEMP_FILE_NAME } from '../../server/serving/static-files.ts';
import { SEARCH_PENDING_FILE } from '../../server/publish/site-search.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startS3, type S3Server } from '../helpers/s3-server.ts';
import { npmRun, serviceEnv, startServerProcess, type ServerProcess } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let s3: S3Server;

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

/** Every file of the output folder, by path (temporary files are never deployed). */
function outputFiles(dir: string, prefix = '', into = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) outputFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`, into);
    else if (entry.isFile() && !TEMP_FILE_NAME.test(entry.name)) into.set(`${prefix}${entry.name}`, fs.readFileSync(path.join(dir, entry.name)));
  }
  return into;
}

/** How the bucket differs from the output folder (empty: equal). */
async function differences(outputDir: string): Promise<string[]> {
  const local = outputFiles(outputDir);
  const bucket = await s3.objects();
  const found: string[] = [];
  for (const [key, bytes] of local) {
    const o = bucket.get(key);
    if (!o) found.push(`missing ${key}`);
    else if (!o.bytes.equals(bytes)) found.push(`other bytes ${key}`);
    else if (o.contentType !== contentTypeOf(key)) found.push(`${key}: Content-Type ${o.contentType}`);
    else if (o.cacheControl !== cacheControlOfFile(key, 60)) found.push(`${key}: Cache-Control ${o.cacheControl}`);
    else if (o.cacheTag !== cacheTagHeaders(tagsOfFile('pressroom', key))['Cache-Tag']) found.push(`${key}: cache tag ${o.cacheTag}`);
  }
  for (const key of bucket.keys()) if (!local.has(key)) found.push(`extra ${key}`);
  return found;
}

describe('a bucket kept equal to the output', () => {
  let t: TestService;
  let key: string;

  beforeAll(async () => {
    // The service's SDK reads its credentials from the environment, as in production.
    for (const [name, value] of Object.entries(s3.env)) if (name.startsWith('AWS_')) process.env[name] = value;
    t = await startTestService(
      { PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0', PRESSROOM_SOCIAL_CARDS: 'false', ...Object.fromEntries(Object.entries(s3.env).filter(([n]) => n.startsWith('PRESSROOM_'))) },
      { startWorker: true },
    );
    key = await t.key('bucket', 'pro');
    const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'stored', default_language: 'en', translations: [{ language: 'en', title: 'Stored' }, { language: 'de', title: 'Gespeichert' }] } });
    expect(ch.status, ch.text).toBe(201);
  }, 120_000);
  afterAll(async () => t?.stop());

  const page = (slug: string) => `/api/v1/channels/stored/pages/${slug}`;
  const published = (slug: string, title: string) =>
    pollUntil(
      async () => (await t.request('GET', page(slug), { key })).json as { translations: Array<{ status: string; title: string; pending_revision: unknown }> },
      (a) => a.translations.every((tr) => tr.status === 'published' && tr.pending_revision === null) && a.translations[0]!.title === title,
      { what: `${slug} published as ${title}`, timeoutMs: 60_000, intervalMs: 10 },
    );

  it('after incremental builds: every key, its bytes, type, cache policy and tags', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#468' } }).png().toBuffer();
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'picture.png');
    form.set('alt', 'A blue square');
    const upload = await fetch(`${t.url}/api/v1/channels/stored/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const image = ((await upload.json()) as { url: string }).url;

    const write = (slug: string, title: string, extra: Record<string, unknown> = {}) =>
      t.request('POST', '/api/v1/channels/stored/pages', {
        key,
        body: { slug, default_language: 'en', status: 'published', publish_translations: true, translations: [{ language: 'en', title, content_markdown: `![A blue square](${image})\n\nAbout ${slug}.` }, { language: 'de', title: `${title} (de)`, content_markdown: `Über ${slug}.` }], ...extra },
      });
    for (const slug of ['one', 'two', 'three', 'four']) {
      expect((await write(slug, `${slug} r0`)).status).toBe(201);
    }
    for (const slug of ['one', 'two', 'three', 'four']) await published(slug, `${slug} r0`);
    // Once reported, the article's own objects are in the bucket.
    const stored = await s3.objects();
    for (const file of ['stored/one.html', 'stored/de/one.html', 'api/public/v1/channels/stored/articles/one.json', 'stored/index.html']) expect(stored.has(file), file).toBe(true);
    expect([...stored.keys()].some((k) => k.startsWith('media/'))).toBe(true);

    expect((await t.request('PUT', `${page('two')}/translations/en`, { key, body: { title: 'two r1', content_markdown: 'Revised.' } })).status).toBe(200);
    await published('two', 'two r1');
    expect((await t.request('PATCH', `${page('three')}/status`, { key, body: { status: 'draft', publish_translations: true } })).status).toBe(200);
    expect((await t.request('PATCH', `${page('four')}/status`, { key, body: { status: 'archived', publish_translations: true } })).status).toBe(200);
    // Withdrawn: its objects are gone from the bucket once the API says so.
    const withdrawn = (await t.request('GET', page('three'), { key })).json as { status: string };
    expect(withdrawn.status).toBe('draft');
    const after = await s3.objects();
    expect(after.has('stored/three.html')).toBe(false);
    expect(after.has('api/public/v1/channels/stored/articles/three.json')).toBe(false);

    await t.service.staticSite!.queue.idle();
    await t.service.staticSite!.search.idle();
    await t.service.edge!.settle(60_000, { search: true });
    expect(await differences(t.config.outputDir)).toEqual([]);
    expect((await t.service.edge!.backlog()).pending).toBe(0);
  }, 300_000);
});

describe('a deploy cut short by SIGKILL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bucket-'));
  let server: ServerProcess | null = null;
  afterAll(() => {
    server?.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = () => serviceEnv(dir, { PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_SOCIAL_CARDS: 'false', ...s3.env, PRESSROOM_DEPLOY_S3_PREFIX: '' });

  it('resumes after a restart: the bucket equals the output, uploading only what it had not', async () => {
    // A fresh bucket key space: the first suite's objects stay, under their own keys; this site's deploy owns the
    // same bucket, so its full sync (npm run deploy) must end equal too. Start from an empty bucket for a clear count.
    const objects = await s3.objects();
    if (objects.size > 0) {
      const { S3Client, DeleteObjectsCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const keys = [...objects.keys()];
      for (let i = 0; i < keys.length; i += 1000) await client.send(new DeleteObjectsCommand({ Bucket: 'pressroom-site', Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) } }));
    }
    // Every upload waits, so the first deploy (the sample content's whole site) is still running when the server dies.
    s3.delayUploads(40);
    const putsBefore = s3.puts();
    server = await startServerProcess(env());
    // Killed once some 40 of the site's ~100 files are up: early enough that the deploy is unfinished (8 lanes, each
    // upload 40 ms), late enough that some of what it sent is final.
    await pollUntil(() => s3.puts() - putsBefore, (n) => n >= 40, { what: 'the deploy to be under way', timeoutMs: 120_000 });
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    server = null;
    const total = outputFiles(path.join(dir, 'dist')).size;
    const before = await s3.objects();
    const half = before.size;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(total);

    s3.delayUploads(0);
    const putsAtRestart = s3.puts();
    server = await startServerProcess(env());
    // Settled: the search index owes nothing (its pending file is gone: a rebuild resting behind the last one
    // would rewrite pagefind/ after the bucket caught up) and the bucket equals the output.
    const pendingSearch = path.join(dir, 'data', SEARCH_PENDING_FILE);
    const diff = await pollUntil(
      async () => (fs.existsSync(pendingSearch) ? ['search index pending'] : differences(path.join(dir, 'dist'))),
      (d) => d.length === 0,
      { what: 'the search index to owe nothing and the bucket to equal the output', timeoutMs: 180_000, intervalMs: 500 },
    );
    expect(diff).toEqual([]);
    // Resumed, not started over: what was in the bucket before the kill, with the bytes the output still has, is not
    // sent again, but for the uploads on their way when it came (stored by the bucket, never recorded: at most one a
    // lane). The kill may come before the first start has built every article, so the output can grow after the
    // restart: the count is held against the final output, and the keys against what was there.
    const final = outputFiles(path.join(dir, 'dist'));
    const sentAgain = s3
      .putKeys()
      .slice(putsAtRestart)
      .filter((key) => before.get(key)?.bytes.equals(final.get(key) ?? Buffer.alloc(0)));
    expect(sentAgain.length, sentAgain.join(', ')).toBeLessThanOrEqual(BUCKET_UPLOAD_CONCURRENCY);
    // How many keys the restart sends says nothing more: when the kill comes before the first start has built its
    // articles, the builds after the restart change nearly every file the first deploy had sent (a loaded run sent
    // all 118), and each changed file must go up again. What a start over would do is send unchanged ones: above.
    const admin = await npmRun('admin', ['edge'], env());
    expect(admin.stdout).toMatch(/nothing pending/);
    expect(await server.stop()).toBe(0);
    server = null;

    // A full sync finds nothing to do; a dry run lists nothing.
    const dry = await npmRun('deploy', ['--dry-run'], env());
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Dry run: 0 to upload, 0 to delete, \d+ unchanged/);
    // An object lost from the bucket is found and uploaded again by a full sync.
    fs.writeFileSync(path.join(dir, 'dist', 'robots.txt'), `${fs.readFileSync(path.join(dir, 'dist', 'robots.txt'), 'utf8')}# local edit\n`);
    const sync = await npmRun('deploy', [], env());
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/1 uploaded/);
    expect(await differences(path.join(dir, 'dist'))).toEqual([]);
  }, 480_000);
});
