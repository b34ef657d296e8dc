/**
 * The dashboard's image uploads over real HTTP (issue 37, items 3 and 5),
 * with images made here by sharp: an article image from the editor (its
 * Markdown with the alt text on the page, the file served), a channel's
 * avatar and cover from its settings (the channel changes, the focal point
 * moves the crop), through the same uploadMedia and upload receiver as
 * POST …/media: the API's refusals and statuses shown beside the field,
 * nothing stored; the Origin check, another account's channel, the body
 * limit of uploads (the image's, not the forms' 64 KB) and the account's
 * upload slots shared with the API.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALT_REQUIRED_MESSAGE } from '../../server/domain/media/upload-input.ts';
import { DASHBOARD_CSP } from '../../server/http/dashboard/dashboard-layout.ts';
import { IMAGE_PAGES_CSP } from '../../server/http/dashboard/image-uploads.ts';
import { accountWithPassword, createArticle, createChannel, sessionCookie, signIn } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let anaKey: string;
let benKey: string;
let id: number;
let benArticle: number;

interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

/** Signs in and returns a sender of forms (multipart when given FormData) with the session and an Origin. */
const signedIn = (account: string) => signIn(t, account);

/** A multipart form with `image` (when given) and the text fields. */
function formOf(image: Uint8Array | null, fields: Record<string, string> = {}, name = 'photo.png'): FormData {
  const form = new FormData();
  if (image) form.set('image', new Blob([new Uint8Array(image)], { type: 'application/octet-stream' }), name);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

/** An image red on its left half and blue on its right. */
async function leftRight(width: number, height: number): Promise<Buffer> {
  const right = await solid(Math.floor(width / 2), height, '#0000ff').png().toBuffer();
  return solid(width, height, '#ff0000').composite([{ input: right, left: width - Math.floor(width / 2), top: 0 }]).png().toBuffer();
}

/** Every file under the media folder: a refused upload leaves it as it was. */
function mediaFiles(): string[] {
  const root = path.join(t.config.dataDir, 'media');
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()).sort() : [];
}

/** The mean red, green and blue of a stored image, read by sharp from what the server serves. */
async function meanOf(url: string): Promise<number[]> {
  const res = await fetch(`${t.url}${new URL(url, t.url).pathname}`);
  expect(res.status).toBe(200);
  const data = Buffer.from(await res.arrayBuffer());
  return (await sharp(data).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
}

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const editor = () => `/dashboard/channels/ana-news/pages/${id}/translations/en`;
const channel = async () => (await t.request('GET', '/api/v1/channels/ana-news', { key: anaKey })).json;

beforeAll(async () => {
  // 1 MB images at most, so an upload over the limit is quick to send.
  t = await startTestService({ PRESSROOM_MAX_IMAGE_MB: '1' });
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  benKey = await accountWithPassword(t, 'ben', 'pro');
  for (const [key, title] of [[anaKey, 'Ana news'], [benKey, 'Ben news']] as const) await createChannel(t, key, title);
  const created = await createArticle(t, anaKey, 'ana-news', { slug: 'hello', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'Hello', content_markdown: 'First paragraph.' }] });
  id = created.id;
  const bens = await createArticle(t, benKey, 'ben-news', { slug: 'his', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'His', content_markdown: 'Text.' }] });
  benArticle = bens.id;
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('an article image from the editor', () => {
  it('has its own multipart form below the editor, and the editor and settings pages allow blob: previews', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', editor());
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<form method="post" action="${editor()}/images" enctype="multipart/form-data"`);
    expect(page.text).toMatch(/<input type="file" id="article-image-image" name="image" required/);
    expect(page.text).toContain('Save your text first');
    // The alt text is written in the translation's language: right to left in an Arabic one.
    const arabic = await ana('GET', `/dashboard/channels/ana-news/pages/${id}/translations/ar`);
    expect(arabic.text).toContain('name="alt" required maxlength="1000" lang="ar" dir="rtl"');
    expect(arabic.text).toContain(`action="/dashboard/channels/ana-news/pages/${id}/translations/ar/images"`);
    expect(page.text).toMatch(/<script src="\/dashboard\/assets\/images-[0-9a-f]{12}\.js" defer><\/script>/);
    expect(page.headers.get('content-security-policy')).toBe(IMAGE_PAGES_CSP);
    expect(IMAGE_PAGES_CSP).toContain("img-src 'self' data: blob:;");
    expect((await ana('GET', '/dashboard/channels/ana-news/settings')).headers.get('content-security-policy')).toBe(IMAGE_PAGES_CSP);
    // Every other page keeps the policy without blob:.
    expect((await ana('GET', '/dashboard')).headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect((await ana('GET', `${editor()}/revisions`)).headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
  });

  it('uploads through uploadMedia: the page shows the Markdown with the alt text, ready to copy, and the image is served', async () => {
    const ana = await signedIn('ana');
    const body = async () => (await t.request('GET', `/api/v1/channels/ana-news/pages/${id}`, { key: anaKey })).json.translations[0].content_markdown;
    const before = await body();
    const res = await ana('POST', `${editor()}/images`, formOf(await leftRight(400, 200), { alt: 'Red and "blue" halves', position_x: '25', position_y: '75', watermark: 'off' }));
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('The image is uploaded.');
    const markdown = unescape(/<textarea id="article-image-markdown" class="source" rows="3" readonly data-uploaded-markdown>([^<]*)<\/textarea>/.exec(res.text)![1]!);
    expect(markdown).toMatch(/^!\[Red and "blue" halves\]\(http:\/\/pressroom\.test\/media\/ana-news\/hello\/[0-9a-f]{16}\.webp\)$/);
    const url = /\((.*)\)$/.exec(markdown)![1]!;
    const served = await fetch(`${t.url}${new URL(url).pathname}`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/webp']);
    // The page shows it from the dashboard's own server.
    expect(res.text).toContain(`<img src="${new URL(url).pathname}" alt="Red and &quot;blue&quot; halves" width="400" height="200">`);
    // The texts are the stored ones, unchanged by the upload.
    expect(res.text).toMatch(/<textarea id="content_markdown"[^>]*>\nFirst paragraph\.\n?<\/textarea>/);
    expect(await body()).toBe(before);
  });

  it('refuses an upload without alt text (422), the message beside the field, what was typed kept and nothing stored', async () => {
    const ana = await signedIn('ana');
    const before = mediaFiles();
    const res = await ana('POST', `${editor()}/images`, formOf(await leftRight(100, 50), { alt: '  ', position_x: '10', position_y: '20' }));
    expect(res.status).toBe(422);
    expect(res.text).toContain('Nothing was uploaded.');
    expect(res.text).toContain(`<span class="field-problem" id="article-image-alt-problem">${ALT_REQUIRED_MESSAGE.replace(/"/g, '&quot;')}</span>`);
    expect(res.text).toMatch(/id="article-image-alt" name="alt" required maxlength="1000" lang="en" dir="ltr" value="  " aria-invalid="true" aria-describedby="article-image-alt-problem article-image-alt-hint"/);
    expect(res.text).toContain('id="article-image-position_x" name="position_x" min="0" max="100" step="any" inputmode="decimal" value="10"');
    expect(mediaFiles()).toEqual(before);
  });

  it("refuses a file that is no image with the API's own message and status, and names a bad focal point", async () => {
    const ana = await signedIn('ana');
    const before = mediaFiles();
    const text = new TextEncoder().encode('This is a text file, not a picture.');
    const api = await fetch(`${t.url}/api/v1/channels/ana-news/media`, { method: 'POST', headers: { authorization: `Bearer ${anaKey}` }, body: formOf(text, { alt: 'x' }) });
    const refusal = (await api.json()).error;
    const res = await ana('POST', `${editor()}/images`, formOf(text, { alt: 'A text' }, 'notes.txt'));
    expect([res.status, api.status]).toEqual([422, 422]);
    expect(res.text).toContain(`<span class="field-problem" id="article-image-image-problem">${refusal.message.replace(/'/g, '&#39;').replace(/"/g, '&quot;')}</span>`);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const vector = await ana('POST', `${editor()}/images`, formOf(svg, { alt: 'A square' }, 'square.svg'));
    expect(vector.status).toBe(422);
    expect(vector.text).toContain('The image is SVG, which is not accepted for upload.');
    const focal = await ana('POST', `${editor()}/images`, formOf(await leftRight(100, 50), { alt: 'Halves', position_x: '101' }));
    expect(focal.status).toBe(422);
    expect(focal.text).toMatch(/id="article-image-position_x-problem">Must be a number from 0 to 100/);
    expect(mediaFiles()).toEqual(before);
  });

  it('takes uploads over the forms’ 64 KB up to the image limit, refuses more with 413 beside the file, and keeps 64 KB for other forms', async () => {
    const ana = await signedIn('ana');
    const cookie = await loginCookie('ana');
    // Noise does not compress: about 270 KB of PNG, over 64 KB and under the 1 MB limit.
    const noise = await sharp(randomBytes(300 * 300 * 3), { raw: { width: 300, height: 300, channels: 3 } }).png().toBuffer();
    expect(noise.length).toBeGreaterThan(64 * 1024);
    const taken = await ana('POST', `${editor()}/images`, formOf(noise, { alt: 'Noise' }));
    expect(taken.status, taken.text.slice(0, 500)).toBe(200);
    const before = mediaFiles();
    const over = await ana('POST', `${editor()}/images`, formOf(new Uint8Array(1024 * 1024 + 1), { alt: 'Too large' }));
    expect(over.status).toBe(413);
    expect(over.text).toMatch(/id="article-image-image-problem">The (image file|upload) is (larger than|1 MB)/);
    expect(mediaFiles()).toEqual(before);
    // A declared length far over the limit is refused before the body is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${t.url}${editor()}/images`, {
        method: 'POST',
        headers: { cookie, origin: t.url, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(declared).toBe(413);
    // A form that is no upload is 415, said at the top of the form.
    const plain = await ana('POST', `${editor()}/images`, { alt: 'No file' });
    expect(plain.status).toBe(415);
    expect(plain.text).toMatch(/<div class="error" role="alert"><p>Nothing was uploaded\. An upload must be multipart\/form-data/);
    // Other forms keep their limit.
    const settings = await ana('POST', '/dashboard/channels/ana-news/settings', { 'title.en': 'x'.repeat(70 * 1024) });
    expect(settings.status).toBe(422);
    expect(settings.text).toContain('A dashboard form is at most 64 KB.');
  });

  it('refuses a form posted from another origin (403), without a session (401) and to another account’s article (404), storing nothing', async () => {
    const ana = await signedIn('ana');
    const before = mediaFiles();
    const image = await leftRight(100, 50);
    const foreign = await ana('POST', `${editor()}/images`, formOf(image, { alt: 'Halves' }), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('not sent from the dashboard');
    // Without a session: the sign-in page, nothing read.
    const anonymous = await fetch(`${t.url}${editor()}/images`, { method: 'POST', headers: { origin: t.url }, body: formOf(image, { alt: 'Halves' }) });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('You are signed out');
    const theirs = await ana('POST', `/dashboard/channels/ben-news/pages/${benArticle}/translations/en/images`, formOf(image, { alt: 'Halves' }));
    expect(theirs.status).toBe(404);
    const avatar = await ana('POST', '/dashboard/channels/ben-news/settings/avatar', formOf(image));
    expect(avatar.status).toBe(404);
    expect(mediaFiles()).toEqual(before);
    expect((await t.request('GET', '/api/v1/channels/ben-news', { key: benKey })).json.avatar_url).toBeNull();
  });
});

/** A session cookie header of a fresh sign-in. */
const loginCookie = (account: string) => sessionCookie(t, account);

describe("a channel's avatar and cover from its settings", () => {
  it('sets the avatar through uploadMedia, cropped around the focal point: left and right give different pixels', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', '/dashboard/channels/ana-news/settings');
    expect(page.text).toContain('No avatar yet.');
    expect(page.text).toContain('<form method="post" action="/dashboard/channels/ana-news/settings/avatar" enctype="multipart/form-data"');
    expect(page.text).toContain('Horizontal position');
    expect(page.text).toContain('Vertical position');
    const image = await leftRight(1200, 600);
    const left = await ana('POST', '/dashboard/channels/ana-news/settings/avatar', formOf(image, { position_x: '0', position_y: '50' }));
    expect(left.status, left.text.slice(0, 400)).toBe(200);
    expect(left.text).toContain('The new avatar is uploaded');
    const leftUrl = (await channel()).avatar_url as string;
    expect(leftUrl).toMatch(/^http:\/\/pressroom\.test\/media\/ana-news\/_channel\/avatar-[0-9a-f]{16}\.webp$/);
    // The page shows the avatar it now has, from the dashboard's own server.
    expect(left.text).toContain(`<img class="current-avatar" src="${new URL(leftUrl).pathname}" alt="The channel's avatar now"`);
    const right = await ana('POST', '/dashboard/channels/ana-news/settings/avatar', formOf(image, { position_x: '100', position_y: '50' }));
    expect(right.status).toBe(200);
    const rightUrl = (await channel()).avatar_url as string;
    expect(rightUrl).not.toBe(leftUrl);
    const [red, , blue] = await meanOf(leftUrl);
    expect([red! > 240, blue! < 15]).toEqual([true, true]);
    const [red2, , blue2] = await meanOf(rightUrl);
    expect([red2! < 15, blue2! > 240]).toEqual([true, true]);
    const meta = await sharp(Buffer.from(await (await fetch(`${t.url}${new URL(rightUrl).pathname}`)).arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 512, 512]);
  });

  it('sets the cover (16:9 around the focal point), and refuses a bad one beside its field with nothing changed', async () => {
    const ana = await signedIn('ana');
    const res = await ana('POST', '/dashboard/channels/ana-news/settings/cover', formOf(await leftRight(1600, 1600), { position_x: '50', position_y: '0' }));
    expect(res.status).toBe(200);
    const cover = (await channel()).cover_url as string;
    expect(cover).toMatch(/\/media\/ana-news\/_channel\/cover-[0-9a-f]{16}\.webp$/);
    const meta = await sharp(Buffer.from(await (await fetch(`${t.url}${new URL(cover).pathname}`)).arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1600, 900]);
    expect(res.text).toContain(`<img class="current-cover" src="${new URL(cover).pathname}"`);
    const before = mediaFiles();
    const refused = await ana('POST', '/dashboard/channels/ana-news/settings/cover', formOf(new TextEncoder().encode('no picture'), { position_y: 'top' }));
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/id="cover-position_y-problem">Must be a number from 0 to 100/);
    expect(refused.text).toContain('value="top"');
    expect((await channel()).cover_url).toBe(cover);
    expect(mediaFiles()).toEqual(before);
  });

  it('refuses a channel image to an editor who may not manage the channel (403)', async () => {
    const { inviteEditor } = await import('../../server/admin/channel-commands.ts');
    await inviteEditor({ db: t.service.db, clock: t.clock }, { channel: 'ana-news', account: 'ben', write: true, manage: false });
    const ben = await signedIn('ben');
    const res = await ben('POST', '/dashboard/channels/ana-news/settings/avatar', formOf(await leftRight(100, 50)));
    expect(res.status).toBe(403);
  });
});

describe("the account's upload slots, shared with the publishing API", () => {
  /** A multipart body that does not end until released (then it ends malformed: a 400 once read). */
  function heldBody(): { body: ReadableStream<Uint8Array>; release: () => void } {
    let release!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('--x\r\n'));
        release = () => controller.close();
      },
    });
    return { body, release: () => release() };
  }

  it('answers 429 with Retry-After on the page once the API and the dashboard together have 2 uploads on their way and 2 waiting', async () => {
    const cookie = await loginCookie('ana');
    const releases: Array<() => void> = [];
    const send = (url: string, headers: Record<string, string>) => {
      const { body, release } = heldBody();
      releases.push(release);
      return fetch(`${t.url}${url}`, { method: 'POST', headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x' }, body, duplex: 'half' } as RequestInit).then(
        async (r) => ({ status: r.status, text: await r.text(), headers: r.headers }),
      );
    };
    // Two API uploads on their way: each is being written to a temporary file of the uploads folder.
    const api = [0, 1].map(() => send('/api/v1/channels/ana-news/media', { authorization: `Bearer ${anaKey}` }));
    const uploadsDir = path.join(t.config.dataDir, 'uploads');
    const receiving = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).filter((f) => f.startsWith('.upload.')).length : 0);
    const deadline = Date.now() + 20_000;
    while (receiving() < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiving()).toBe(2);
    // Dashboard uploads, one after another, until one is refused: with the API's two, at most two more fit (waiting).
    const probes: Array<Promise<Answer>> = [];
    let refused: Answer | undefined;
    while (!refused && probes.length < 8 && Date.now() < deadline) {
      const probe = send(`${editor()}/images`, { cookie, origin: t.url });
      probes.push(probe);
      const first = await Promise.race([probe, new Promise<undefined>((resolve) => setTimeout(resolve, 100))]);
      if (first?.status === 429) refused = first;
    }
    for (const release of releases) release();
    const answers = await Promise.all(probes);
    // On a slow machine a refusal may come later than the race above looked: it is among the answers then.
    refused ??= answers.find((a) => a.status === 429);
    expect((await Promise.all(api)).map((a) => a.status)).toEqual([400, 400]);
    expect(answers.filter((a) => a.status !== 429).length).toBeLessThanOrEqual(2);
    expect(refused?.headers.get('retry-after')).toBe('5');
    expect(refused?.text).toContain('This account already has 2 uploads on their way and 2 waiting');
    expect(refused?.text).toContain('Nothing was uploaded.');
    // The slots are free again.
    const ana = await signedIn('ana');
    expect((await ana('POST', `${editor()}/images`, formOf(await leftRight(100, 50), { alt: 'Halves' }))).status).toBe(200);
  }, 60_000);
});
