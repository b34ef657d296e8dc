/**
 * Link-preview images, drawn with sharp (the only module of the renderers
 * that imports it): a page without an image of its own gets a card of
 * 1200 × 630 px (OpenGraph's and X's large preview) with its title, the
 * channel's name and the site's name, laid out in the page's direction and
 * shaped by Pango (Arabic and Hebrew joined and right to left); the site
 * gets a square logo drawn from its favicon, the JSON-LD `publisher.logo`
 * of channels without an avatar.
 *
 * Drawing a card costs a few milliseconds (Pango for the title, a grey PNG:
 * docs/PERFORMANCE.md), which adds up over a site's pages, so cards are kept by content
 * hash under `cacheDir` (`{dataDir}/cards`): a card whose text, direction
 * and design are unchanged is read back, not drawn, whichever build asks
 * (a cold build of a new output folder, a render thread, a restart).
 * Fonts are the system's (fontconfig): DejaVu covers Latin, Arabic and
 * Hebrew (`.ci/run` installs `fonts-dejavu-core`).
 * @module
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** The card's size, in pixels (what `og:image:width`/`height` say). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** The site logo's size (square). */
export const LOGO_SIZE = 512;

/** Changes whenever the drawing does, so cached cards of the old design are not reused. */
const CARD_DESIGN = '3';

/** What a card shows. */
export interface SocialCard {
  /** The page's title (an article's, a channel's name, the site's name). */
  readonly title: string;
  /** Above the title: the channel's name on an article's card; empty for none. */
  readonly kicker: string;
  /** Below: the site's name. */
  readonly site: string;
  /** Language and direction of the title and kicker. */
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
}

/** Draws cards and the logo. */
export interface CardRenderer {
  card(card: SocialCard): Promise<Uint8Array>;
  /** The site's logo: `svg` (the favicon) drawn on a square PNG. */
  logo(svg: string): Promise<Uint8Array>;
}

const MARGIN = 80;
const TEXT_WIDTH = CARD_WIDTH - 2 * MARGIN;
const TITLE_TOP = 190;
const TITLE_MAX_HEIGHT = 300;
/** Longer titles are cut (with an ellipsis) before drawing: three or four lines is what a preview shows. */
const TITLE_MAX_CHARS = 140;
/** Grey levels of the design: ink, the muted lines, paper. */
const INK = 17;
const MUTED = 76;
const PAPER = 255;

/**
 * The card is grey (one channel): drawn in a byte buffer and encoded once, it
 * costs a third of an RGB card (the PNG encoding is most of the cost).
 * The paper with its rule is made once.
 */
let paper: Buffer | null = null;
function blankCard(): Buffer {
  if (!paper) {
    paper = Buffer.alloc(CARD_WIDTH * CARD_HEIGHT, PAPER);
    for (let y = MARGIN; y < MARGIN + 10; y++) paper.fill(INK, y * CARD_WIDTH + MARGIN, y * CARD_WIDTH + CARD_WIDTH - MARGIN);
  }
  return Buffer.from(paper);
}

/** Text drawn by Pango: its coverage (0 no ink to 255 full), one byte a pixel. */
interface TextImage {
  readonly coverage: Buffer;
  readonly width: number;
  readonly height: number;
}

/** Thrown by Pango when it has no font at all (a machine without fonts): the card is drawn without that text. */
class NoFontsError extends Error {}

/** `text` drawn `TEXT_WIDTH` wide at `size` px, made smaller to fit `maxHeight` when it would be taller. */
async function textImage(text: string, font: string, size: number, maxHeight: number, align: 'left' | 'right', lang: string): Promise<TextImage | null> {
  try {
    return await pangoText(text, font, size, maxHeight, align, lang);
  } catch (error) {
    throw new NoFontsError(`the text could not be drawn (${(error as Error).message}): install fonts (Debian: fonts-dejavu-core)`, { cause: error });
  }
}

async function pangoText(text: string, font: string, size: number, maxHeight: number, align: 'left' | 'right', lang: string): Promise<TextImage | null> {
  if (text.trim() === '') return null;
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const common = { text: `<span lang="${lang.replace(/[^A-Za-z0-9-]/g, '')}">${escaped}</span>`, width: TEXT_WIDTH, align, wrap: 'word-char' as const };
  let { data, info } = await sharp({ text: { ...common, font: `${font} ${size}`, dpi: 72 } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  // Without any font Pango draws each character as a tiny box, a fraction of the size asked for.
  if (info.height < size / 2) throw new Error(`a ${size} px line came out ${info.height} px high: no font was found`);
  // Both width and height make Pango choose the size that fits.
  if (info.height > maxHeight) ({ data, info } = await sharp({ text: { ...common, font, height: maxHeight } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true }));
  return { coverage: data, width: info.width, height: info.height };
}

// The channel's and the site's names recur on thousands of cards: drawn once each (bounded).
const drawnLines = new Map<string, Promise<TextImage | null>>();
function lineImage(text: string, size: number, align: 'left' | 'right', lang: string): Promise<TextImage | null> {
  const key = `${size}|${align}|${lang}|${text}`;
  let line = drawnLines.get(key);
  if (!line) {
    if (drawnLines.size >= 500) drawnLines.clear();
    drawnLines.set(key, (line = textImage(text, 'DejaVu Sans', size, 50, align, lang)));
    // A line that could not be drawn is tried again next time (fonts may have been installed since).
    line.catch(() => drawnLines.delete(key));
  }
  return line;
}

/** Lays `text` on `canvas` at `top`, from the left or the right margin, in grey `level`. */
function lay(canvas: Buffer, text: TextImage | null, top: number, dir: 'ltr' | 'rtl', level: number): void {
  if (!text) return;
  const left = dir === 'rtl' ? CARD_WIDTH - MARGIN - text.width : MARGIN;
  const rows = Math.min(text.height, CARD_HEIGHT - top);
  for (let y = 0; y < rows; y++) {
    const row = (top + y) * CARD_WIDTH + left;
    for (let x = 0; x < text.width; x++) {
      const a = text.coverage[y * text.width + x]!;
      if (a !== 0) canvas[row + x] = ((canvas[row + x]! * (255 - a) + level * a + 127) / 255) | 0;
    }
  }
}

/** The title, cut at a word near the limit with an ellipsis when longer. */
function shortTitle(title: string): string {
  const chars = [...title.trim()];
  if (chars.length <= TITLE_MAX_CHARS) return chars.join('');
  const cut = chars.slice(0, TITLE_MAX_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_CHARS * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A drawn card, and why its text is missing when it is (no fonts on this machine). */
export interface DrawnCard {
  readonly png: Uint8Array;
  readonly problem: string | null;
}

/** Draws one card (no cache). Without fonts the card has its rule only, and `problem` says why. */
export async function drawCard(card: SocialCard): Promise<DrawnCard> {
  const align = card.dir === 'rtl' ? 'right' : 'left';
  let problem: string | null = null;
  const orNothing = (drawing: Promise<TextImage | null>) =>
    drawing.catch((error: unknown) => {
      if (!(error instanceof NoFontsError)) throw error;
      problem = error.message;
      return null;
    });
  const [kicker, title, site] = await Promise.all([
    orNothing(lineImage(card.kicker, 34, align, card.lang)),
    orNothing(textImage(shortTitle(card.title), 'DejaVu Serif Bold', 60, TITLE_MAX_HEIGHT, align, card.lang)),
    orNothing(lineImage(card.site, 28, align, 'und')),
  ]);
  const canvas = blankCard();
  lay(canvas, kicker, 115, card.dir, MUTED);
  lay(canvas, title, TITLE_TOP, card.dir, INK);
  if (site) lay(canvas, site, CARD_HEIGHT - MARGIN - site.height, card.dir, MUTED);
  // zlib level 4: as small as level 6 on a card (about 10 KB) and a quarter faster.
  const png = await sharp(canvas, { raw: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 1 } }).png({ compressionLevel: 4 }).toBuffer();
  return { png, problem };
}

/** Draws the site logo from an SVG (no cache: one per build). */
export async function drawLogo(svg: string): Promise<Uint8Array> {
  return sharp(Buffer.from(svg), { density: 300 }).resize(LOGO_SIZE, LOGO_SIZE, { fit: 'contain', background: '#ffffff' }).flatten({ background: '#ffffff' }).png().toBuffer();
}

/**
 * Cards drawn once per content: kept under `cacheDir` by the hash of what
 * they show (null: not kept). A cache that cannot be written is only slower.
 * A card drawn without its text (no fonts) is not kept, and `warn` is told
 * once, so the build goes on and installing fonts fixes the next build.
 */
export function createCardRenderer(options: { readonly cacheDir: string | null; readonly warn?: (message: string) => void }): CardRenderer {
  const { cacheDir } = options;
  let warned = false;
  const draw = async (card: SocialCard): Promise<DrawnCard> => {
    const drawn = await drawCard(card);
    if (drawn.problem && !warned) {
      warned = true;
      options.warn?.(`Link-preview cards are drawn without their text: ${drawn.problem}.`);
    }
    return drawn;
  };
  return Object.freeze({
    async card(card: SocialCard): Promise<Uint8Array> {
      if (!cacheDir) return (await draw(card)).png;
      const key = crypto.createHash('sha256').update(JSON.stringify([CARD_DESIGN, card.title, card.kicker, card.site, card.lang, card.dir])).digest('hex');
      const file = path.join(cacheDir, key.slice(0, 2), `${key}.png`);
      const kept = await fs.promises.readFile(file).catch(() => null);
      if (kept) return kept;
      const { png: drawn, problem } = await draw(card);
      if (problem) return drawn;
      const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(temp, drawn);
        await fs.promises.rename(temp, file);
      } catch {
        await fs.promises.rm(temp, { force: true }).catch(() => {});
      }
      return drawn;
    },
    logo: drawLogo,
  });
}
