import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, createCardRenderer, drawCard, drawLogo, LOGO_SIZE } from './social-card.ts';
import { renderFavicon } from './favicon.ts';
import { PROJECT_ROOT } from '../paths.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-cards-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const EN = { title: 'Welcome to the Pressroom', kicker: 'Pressroom Journal', site: 'Pressroom', lang: 'en', dir: 'ltr' as const };
const AR = { title: 'مرحبا بكم في غرفة الأخبار', kicker: 'مجلة غرفة الأخبار', site: 'Pressroom', lang: 'ar', dir: 'rtl' as const };

/** The columns of the card that hold ink (not white) in the title's band. */
async function inkColumns(png: Uint8Array): Promise<{ first: number; last: number }> {
  const { data, info } = await sharp(png).extract({ left: 0, top: 190, width: CARD_WIDTH, height: 120 }).greyscale().raw().toBuffer({ resolveWithObject: true });
  let first = info.width;
  let last = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! < 128) {
        first = Math.min(first, x);
        last = Math.max(last, x);
      }
    }
  }
  return { first, last };
}

describe('drawCard', () => {
  it('draws a 1200 × 630 PNG', async () => {
    const meta = await sharp((await drawCard(EN)).png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', CARD_WIDTH, CARD_HEIGHT]);
  });

  it('lays a left-to-right title from the left margin, a right-to-left one from the right', async () => {
    const ltr = await inkColumns((await drawCard(EN)).png);
    const rtl = await inkColumns((await drawCard(AR)).png);
    expect(ltr.first).toBeLessThan(100);
    expect(ltr.last).toBeLessThan(CARD_WIDTH - 100);
    expect(rtl.last).toBeGreaterThan(CARD_WIDTH - 100);
    expect(rtl.first).toBeGreaterThan(100);
  });

  it('fits a very long title (cut, smaller) inside the card', async () => {
    const { png } = await drawCard({ ...EN, title: 'A very long title '.repeat(30) });
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
  });

  it('escapes markup in the text', async () => {
    expect((await drawCard({ ...EN, title: '<b>Tags</b> & "quotes" </span>' })).problem).toBeNull();
  });
});

describe('the card cache', () => {
  it('keeps a drawn card by content hash and reads it back', async () => {
    const cards = createCardRenderer({ cacheDir: dir });
    const first = await cards.card(EN);
    const kept = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png'));
    expect(kept).toHaveLength(1);
    const file = path.join(dir, String(kept[0]));
    const mtime = fs.statSync(file).mtimeMs;
    expect(Buffer.from(await cards.card(EN)).equals(Buffer.from(first))).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    await cards.card({ ...EN, title: 'Another title' });
    expect(fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png'))).toHaveLength(2);
  });

  it('still draws when the cache cannot be written', async () => {
    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, 'x');
    const png = await createCardRenderer({ cacheDir: blocked }).card(AR);
    expect((await sharp(png).metadata()).width).toBe(CARD_WIDTH);
  });
});

describe('drawLogo', () => {
  it('draws the favicon on a square PNG', async () => {
    const meta = await sharp(await drawLogo(renderFavicon())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', LOGO_SIZE, LOGO_SIZE]);
  });
});

describe('on a machine without fonts', () => {
  it('draws the card without its text, warns once, and keeps nothing, so the build goes on', () => {
    // fontconfig reads its configuration once per process: a child process with one that lists no font.
    const conf = path.join(dir, 'fonts.conf');
    fs.writeFileSync(conf, `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>${path.join(dir, 'no-fonts')}</dir><cachedir>${path.join(dir, 'fc-cache')}</cachedir></fontconfig>`);
    const cache = path.join(dir, 'no-font-cards');
    const script = `
      import { createCardRenderer } from ${JSON.stringify(path.join(import.meta.dirname, 'social-card.ts'))};
      import sharp from 'sharp';
      const warnings = [];
      const cards = createCardRenderer({ cacheDir: ${JSON.stringify(cache)}, warn: (m) => warnings.push(m) });
      const png = await cards.card({ title: 'Hello', kicker: 'Desk', site: 'Site', lang: 'en', dir: 'ltr' });
      await cards.card({ title: 'Again', kicker: 'Desk', site: 'Site', lang: 'en', dir: 'ltr' });
      console.log(JSON.stringify({ width: (await sharp(png).metadata()).width, warnings }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, env: { ...process.env, FONTCONFIG_FILE: conf }, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { width: number; warnings: string[] };
    expect(result.width).toBe(CARD_WIDTH);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/install fonts \(Debian: fonts-dejavu-core\)/);
    expect(fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith('.png')) : []).toEqual([]);
  }, 60_000);
});
