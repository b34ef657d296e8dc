/**
 * The part of the benchmark corpus written through the publishing API: a real
 * service (`startService`, as `npm start` runs it) on a loopback port in the
 * corpus's own folders, real HTTP requests, real moderation. Each of these
 * articles first uploads a small generated image (`POST …/media`) and refers
 * to it in every translation, so the corpus has images that went through
 * upload, processing and attachment.
 * @module
 */
import sharp from 'sharp';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import { createLogger } from '../../server/logger.ts';
import { startService } from '../../server/main.ts';

/** How many articles of a corpus go through the API: the last ~1 %, at least 20 (so all of a smaller corpus). */
export function apiSampleSize(articles: number): number {
  return Math.min(articles, Math.max(20, Math.ceil(articles / 100)));
}

/** A deterministic 480 × 320 PNG for article `n`: a gradient in a colour of its own. */
async function figure(n: number): Promise<Buffer> {
  const width = 480;
  const height = 320;
  const pixels = Buffer.alloc(width * height * 3);
  const [r, g, b] = [(n * 67) % 256, (n * 131) % 256, (n * 199) % 256];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const shade = (x + y) / (width + height);
      pixels[i] = Math.round(r * shade);
      pixels[i + 1] = Math.round(g * (1 - shade));
      pixels[i + 2] = Math.round(b * 0.5 + 64 * shade);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

async function call(url: string, key: string, init: { method: string; body?: unknown; form?: FormData }): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  let body: string | FormData | undefined = init.form;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const response = await fetch(url, { method: init.method, headers, body });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/**
 * Writes articles `from` … `to - 1` through the publishing API of a service
 * started on `dataDir` / `outputDir` (the database must already hold the
 * corpus's account and channels), waits until moderation has published them
 * all, and stops the service.
 * @returns how many articles and images were written.
 */
export async function publishThroughApi(options: {
  dataDir: string;
  outputDir: string;
  from: number;
  to: number;
  /** The corpus's languages, its channel count and bodies (passed in: corpus.ts imports this module). */
  languages: readonly string[];
  channels: number;
  body: (n: number, language: string) => string;
}): Promise<{ articles: number; images: number }> {
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      PRESSROOM_DATA_DIR: options.dataDir,
      PRESSROOM_OUTPUT_DIR: options.outputDir,
      PRESSROOM_PUBLIC_URL: 'http://bench.test',
      PRESSROOM_IMPORT_CONTENT: 'false',
      PRESSROOM_WATCH_CONTENT: 'false',
      // The benchmarks build the output themselves; here only the writes count.
      PRESSROOM_STATIC_BUILD: 'false',
      PRESSROOM_LOG_LEVEL: 'warn',
    },
    options.dataDir,
  );
  // The worker stays off while writing: moderation runs once, after the last request, instead of racing it.
  const service = await startService(config, { log: createLogger('warn'), startWorker: false });
  try {
    const key = (await createApiKey({ db: service.db, clock: systemClock }, { accountName: 'bench', plan: 'pro', label: 'bench corpus' })).key;
    const api = `${service.url}/api/v1`;
    let images = 0;
    for (let n = options.from; n < options.to; n++) {
      const channel = `channel-${n % options.channels}`;
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(await figure(n))], { type: 'image/png' }), `figure-${n}.png`);
      form.append('alt', `Figure ${n}`);
      const upload = await call(`${api}/channels/${channel}/media`, key, { method: 'POST', form });
      if (upload.status !== 201) throw new Error(`media upload for article ${n}: ${upload.status} ${JSON.stringify(upload.json)}`);
      images++;
      const image: string = upload.json.markdown;
      const write = await call(`${api}/channels/${channel}/pages`, key, {
        method: 'POST',
        body: {
          slug: `a-${n}`,
          default_language: 'en',
          status: 'published',
          translations: options.languages.map((language) => ({
            language,
            title: `Article ${n} in ${language}`,
            excerpt: `Summary of article ${n}.`,
            content_markdown: options.body(n, language).replace('\n\n', `\n\n${image}\n\n`),
          })),
        },
      });
      if (write.status !== 201 && write.status !== 200) throw new Error(`article ${n}: ${write.status} ${JSON.stringify(write.json)}`);
    }
    await service.worker.runDue();
    for (let n = options.from; n < options.to; n++) {
      const read = await call(`${api}/channels/channel-${n % options.channels}/pages/a-${n}`, key, { method: 'GET' });
      if (read.json?.status !== 'published') throw new Error(`article ${n} is ${read.json?.status ?? read.status} after moderation, not published`);
    }
    return { articles: options.to - options.from, images };
  } finally {
    await service.stop();
  }
}
