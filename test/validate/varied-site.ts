/**
 * The validation suite's fixture (docs/OUTPUTS.md, "Validation"): a varied
 * site built through the real publishing API, the real moderation rules of
 * `docs/moderation.example.json`, the real static build (Astro) and the
 * real Pagefind index, served by the bundled server on loopback.
 *
 * Two channels (an English one with an Arabic translation, and an Arabic
 * one, right to left), avatars and covers, articles in en + ar with
 * uploaded images and alt text, aligned tables, long code lines, links
 * between articles in every relative form, and titles with the characters
 * that break formats (`&`, `<b>`, `]]>`, brackets, parentheses,
 * backslashes, quotes, emoji, RTL text; control characters are refused by the API). Beside them, what must
 * never appear: a draft, a scheduled article, a blocked article, a refused
 * revision of a published one, and an article that was unpublished.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The built fixture. */
export interface VariedSite {
  /** The output folder. */
  readonly distDir: string;
  /** The site's configured public address (no trailing slash). */
  readonly baseUrl: string;
  /** The bundled server on loopback, serving `distDir`. */
  readonly serverUrl: string;
  /** Texts (titles, slugs, body words) that must appear in no output file. */
  readonly unpublished: readonly string[];
  /** Paths (from the site root) of every page kind (home, channel, article) in LTR and RTL, for checks in a browser. */
  readonly pages: readonly string[];
  /** The running service, for checks that need more. */
  readonly service: TestService;
  stop(): Promise<void>;
}

/** Titles with the characters that break formats. */
export const AWKWARD_TITLES = {
  en: 'Tides ]]> & "quotes" <b>bold</b> [x] (y) \\ back\\slash 🌊',
  ar: 'المد والجزر ]]> & «اقتباس» [س] (ص) 🌙',
} as const;

const LONG_CODE = `const line = "${'a very long line of code that does not wrap '.repeat(8).trim()}";`;

function body(lang: 'en' | 'ar', images: readonly { url: string; alt: string }[], others: { sibling: string; own: string; channel: string }): string {
  // A raw control character (pasted text): bodies accept it, no HTML output may carry it.
  const words = lang === 'en' ? 'The tide comes in twice a day\u0007' : 'يأتي المد مرتين في اليوم';
  return [
    // Links in the forms that mean the same on every page of the article (`..` depends on the page's depth).
    `${words}, see [the other article](./${others.sibling}), [the same one](${others.sibling}), [by its path](/${others.own}/${others.sibling}), [the section below](#notes), [the other channel](/${others.channel}/) and [an outside page](https://example.org/page?x=1&y=2).`,
    ...images.map((i) => `![${i.alt}](${i.url})`),
    // Wider than a phone: the table scrolls sideways.
    '| Left | Centre | Right | Notes |\n| :--- | :---: | ---: | --- |\n| a | b | 3 | short |\n| long cell | c | 42 | ' + 'a cell of unbreakable-words-that-go-on-and-on '.repeat(3) + ' |',
    '```ts\n' + LONG_CODE + '\n```',
    '## Notes',
    `> ${words}.\n\n- one\n- two with \`code\``,
  ].join('\n\n');
}

/** The paragraphs of the `observations` article, which has no excerpt: its summaries are cut from these. */
export const SUMMARY_PARAGRAPHS = [
  'The morning was calm and clear over the harbour. By the evening the wind had turned to the west, and the readings rose with it through the night.',
  'Boats stayed in, and the harbour master expects the same tomorrow. The next note follows at six.',
] as const;

/** A raw `<img>` of the `observations` body with no alt attribute: no output may show it (`image-alt.ts`). */
export const NO_ALT_IMAGE = 'https://example.org/chart-without-alt.png';

const OBSERVATIONS_BODY = [
  '## Observations',
  '| Time | Reading |\n| :--- | ---: |\n| 06:00 | 135 |\n| 18:00 | 225 |',
  '```py\nprint("note 45")\n```',
  '- Temperature: 10 °C\n- Wind: 3 m/s',
  ...SUMMARY_PARAGRAPHS,
  // Raw images: one with no alt at all (not published, with a write warning), one marked decorative (alt="").
  `<img src="${NO_ALT_IMAGE}" onerror="alert(1)">`,
  '<img src="https://example.org/divider.png" alt="">',
  '## Previous note',
].join('\n\n');

/**
 * Builds the fixture in a fresh temp dir (see module doc) and waits for the
 * static build and the search index. Call `stop()` when done.
 */
export async function buildVariedSite(): Promise<VariedSite> {
  const t = await startTestService({
    PRESSROOM_STATIC_BUILD: 'true',
    PRESSROOM_RATE_LIMIT_CONTENT: '0',
    PRESSROOM_MODERATION_FILE: path.join(ROOT, 'docs/moderation.example.json'),
  });
  const key = await t.key('validator', 'pro');
  const call = async (method: string, url: string, payload?: unknown, expected = [200, 201]) => {
    const res = await t.request(method, url, { key, body: payload });
    if (!expected.includes(res.status)) throw new Error(`${method} ${url} → ${res.status}: ${res.text}`);
    return res.json;
  };
  const upload = async (channel: string, fields: Record<string, string>, colour: string, size: readonly [number, number] = [800, 500]) => {
    const form = new FormData();
    const png = await sharp({ create: { width: size[0], height: size[1], channels: 3, background: colour } }).png().toBuffer();
    form.set('image', new Blob([new Uint8Array(png)]), 'image.png');
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const res = await fetch(`${t.url}/api/v1/channels/${channel}/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const json = await res.json();
    if (res.status !== 201) throw new Error(`upload → ${res.status}: ${JSON.stringify(json)}`);
    return json as { url: string };
  };
  const settle = async () => {
    await t.service.worker.runDue();
    t.service.staticSite!.queue.kick();
    await t.service.staticSite!.queue.idle();
  };

  await call('POST', '/api/v1/channels', {
    slug: 'harbour',
    default_language: 'en',
    translations: [
      { language: 'en', title: 'Harbour & Sea <News>', description: 'Tides, boats "and" weather [daily].' },
      { language: 'ar', title: 'الميناء والبحر', description: 'المد والقوارب والطقس.' },
    ],
  });
  await call('POST', '/api/v1/channels', {
    slug: 'sahara',
    default_language: 'ar',
    translations: [{ language: 'ar', title: 'أخبار الصحراء', description: 'رمال وقوافل ونجوم.' }],
  });
  for (const channel of ['harbour', 'sahara']) {
    await upload(channel, { purpose: 'channel_avatar' }, '#aa3300', [600, 600]);
    await upload(channel, { purpose: 'channel_cover' }, '#003366', [1600, 600]);
  }

  const img = async (channel: string, colour: string, alt: string) => ({ url: (await upload(channel, {}, colour)).url, alt });
  const harbourImages = { en: [await img('harbour', '#113355', 'The harbour at dawn')], ar: [await img('harbour', '#335511', 'الميناء عند الفجر')] };
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'tides',
    default_language: 'en',
    author: { name: 'Jane "JD" Doe & Co' },
    status: 'published',
    translations: [
      { language: 'en', title: AWKWARD_TITLES.en, excerpt: 'High & low water: <when> and "why" ]]>.', content_markdown: body('en', harbourImages.en, { sibling: 'boats', own: 'harbour', channel: 'sahara' }) },
      { language: 'ar', title: AWKWARD_TITLES.ar, excerpt: 'متى ولماذا.', content_markdown: body('ar', harbourImages.ar, { sibling: 'boats', own: 'harbour', channel: 'sahara' }) },
    ],
  });
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'boats',
    default_language: 'en',
    status: 'published',
    translations: [
      { language: 'en', title: 'Boats (and ships) [2026]', content_markdown: body('en', [], { sibling: 'tides', own: 'harbour', channel: 'sahara' }) },
      { language: 'ar', title: 'القوارب', content_markdown: body('ar', [], { sibling: 'tides', own: 'harbour', channel: 'sahara' }) },
    ],
  });
  const dunes = [await img('sahara', '#ccaa55', 'الكثبان عند الغروب')];
  await call('POST', '/api/v1/channels/sahara/pages', {
    slug: 'dunes',
    default_language: 'ar',
    status: 'published',
    translations: [
      { language: 'ar', title: 'الكثبان الرملية', excerpt: 'رمال تتحرك.', content_markdown: body('ar', dunes, { sibling: 'stars', own: 'sahara', channel: 'harbour' }) },
      { language: 'en', title: 'Dunes', content_markdown: body('en', dunes, { sibling: 'stars', own: 'sahara', channel: 'harbour' }) },
    ],
  });
  await call('POST', '/api/v1/channels/sahara/pages', {
    slug: 'stars',
    default_language: 'ar',
    status: 'published',
    translations: [
      { language: 'ar', title: 'نجوم الصحراء', content_markdown: body('ar', [], { sibling: 'dunes', own: 'sahara', channel: 'harbour' }) },
      { language: 'en', title: 'Desert stars', content_markdown: body('en', [], { sibling: 'dunes', own: 'sahara', channel: 'harbour' }) },
    ],
  });

  // No excerpt, and a body that opens with a heading, a table and code before its first paragraph (issue 34):
  // every summary made of it must be the start of a paragraph (`SUMMARY_PARAGRAPHS`).
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'observations',
    default_language: 'en',
    status: 'published',
    translations: [{ language: 'en', title: 'Weather observations', content_markdown: OBSERVATIONS_BODY }],
  });
  // What must never appear.
  const unpublished = ['Unseen draft zebra', 'Scheduled quokka', 'Blocked casino bonus', 'Refused narwhal', 'Withdrawn axolotl'];
  await call('POST', '/api/v1/channels/harbour/pages', { slug: 'draft-zebra', default_language: 'en', translations: [{ language: 'en', title: unpublished[0], content_markdown: 'zebra body' }] });
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'scheduled-quokka',
    default_language: 'en',
    status: 'scheduled',
    scheduled_at: '2027-06-01T00:00:00Z',
    translations: [{ language: 'en', title: unpublished[1], content_markdown: 'quokka body' }],
  });
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'blocked-bonus',
    default_language: 'en',
    status: 'published',
    translations: [{ language: 'en', title: unpublished[2], content_markdown: 'Get your casino bonus here.' }],
  });
  await call('POST', '/api/v1/channels/harbour/pages', {
    slug: 'withdrawn-axolotl',
    default_language: 'en',
    status: 'published',
    translations: [{ language: 'en', title: unpublished[4], content_markdown: 'axolotl body' }],
  });
  await settle();
  await call('PUT', '/api/v1/channels/harbour/pages/boats/translations/en', { title: unpublished[3], content_markdown: 'Refused narwhal: casino bonus inside.' });
  await call('PATCH', '/api/v1/channels/harbour/pages/withdrawn-axolotl/status', { status: 'draft' });
  await settle();
  await t.service.staticSite!.search.idle();
  // The fixture is only as good as these states: check them rather than trust them.
  const state = async (slug: string) => {
    const a = await call('GET', `/api/v1/channels/harbour/pages/${slug}`);
    return [a.translations[0].status, a.translations[0].pending_revision?.status ?? null];
  };
  const states = Object.fromEntries(await Promise.all(['draft-zebra', 'scheduled-quokka', 'blocked-bonus', 'withdrawn-axolotl', 'boats', 'tides'].map(async (s) => [s, await state(s)])));
  const expected = {
    'draft-zebra': ['draft', null],
    'scheduled-quokka': ['scheduled', null],
    'blocked-bonus': ['moderation_blocked', null],
    'withdrawn-axolotl': ['draft', null],
    boats: ['published', 'moderation_blocked'],
    tides: ['published', null],
  };
  if (JSON.stringify(states) !== JSON.stringify(expected)) throw new Error(`fixture states ${JSON.stringify(states)}, expected ${JSON.stringify(expected)}`);

  return {
    distDir: t.config.outputDir,
    baseUrl: t.config.publicUrl.replace(/\/$/, ''),
    serverUrl: t.url,
    unpublished: [...unpublished, 'draft-zebra', 'scheduled-quokka', 'blocked-bonus', 'withdrawn-axolotl'],
    pages: ['/', '/harbour/', '/sahara/', '/harbour/tides', '/harbour/ar/tides', '/sahara/dunes', '/sahara/en/dunes'],
    service: t,
    stop: () => t.stop(),
  };
}

/** Every output file of `distDir` (relative paths), grouped by kind; media and the search index are left out. */
export function listOutputs(distDir: string): Record<'html' | 'json' | 'md' | 'rss' | 'jsonFeed' | 'sitemap' | 'llms' | 'other', string[]> {
  const kinds = { html: [], json: [], md: [], rss: [], jsonFeed: [], sitemap: [], llms: [], other: [] } as Record<'html' | 'json' | 'md' | 'rss' | 'jsonFeed' | 'sitemap' | 'llms' | 'other', string[]>;
  const files = (fs.readdirSync(distDir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => !/^(?:media|pagefind)(?:\/|$)/.test(f) && fs.statSync(path.join(distDir, f)).isFile())
    .sort();
  for (const f of files) {
    const name = path.basename(f);
    if (name.endsWith('.html')) kinds.html.push(f);
    else if (name === 'rss.xml') kinds.rss.push(f);
    else if (name === 'feed.json') kinds.jsonFeed.push(f);
    else if (name.endsWith('.json')) kinds.json.push(f);
    else if (name.endsWith('.md')) kinds.md.push(f);
    else if (/^sitemap.*\.xml$/.test(name)) kinds.sitemap.push(f);
    else if (/^llms(?:-\d+)?\.txt$/.test(name)) kinds.llms.push(f);
    else kinds.other.push(f);
  }
  return kinds;
}
