/**
 * Reads the folder layout of content/ into memory:
 *
 *     content/<channel-slug>/channel.md
 *     content/<channel-slug>/<article-slug>/<lang>.md
 *
 * Only reading happens here; what the files mean is decided by the importer.
 * Paths in the result are relative to the content folder with `/`
 * separators, so error reports read the same on every platform.
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** File name of a channel's settings. */
export const CHANNEL_FILE = 'channel.md';

/** One file, read whole. */
export interface ContentFile {
  /** File name, e.g. `en.md`. */
  readonly name: string;
  /** Path relative to the content folder, e.g. `journal/hello/en.md`. */
  readonly rel: string;
  readonly bytes: Buffer;
}

/** An article folder and its `.md` files, sorted by name. */
export interface ArticleFolder {
  readonly name: string;
  readonly rel: string;
  readonly files: readonly ContentFile[];
}

/** A channel folder: its `channel.md` (null when missing) and its article folders. */
export interface ChannelFolder {
  readonly name: string;
  readonly rel: string;
  readonly channelFile: ContentFile | null;
  readonly articles: readonly ArticleFolder[];
}

interface Entry {
  readonly name: string;
  readonly full: string;
  readonly isDirectory: boolean;
}

/**
 * Lists a folder, sorted by name so imports run in a stable order.
 * Dot entries (`.git`, `.DS_Store`) are skipped. Symbolic links are followed.
 */
async function list(dir: string): Promise<Entry[]> {
  const names = (await fs.readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  const entries: Entry[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const stat = await fs.stat(full).catch(() => null); // a dangling link is simply absent
    if (stat) entries.push({ name, full, isDirectory: stat.isDirectory() });
  }
  return entries;
}

async function readArticle(entry: Entry, rel: string): Promise<ArticleFolder> {
  const files: ContentFile[] = [];
  // Other files and sub-folders are left alone: they are not imported.
  for (const file of await list(entry.full)) {
    if (file.isDirectory || !file.name.endsWith('.md')) continue;
    files.push({ name: file.name, rel: `${rel}/${file.name}`, bytes: await fs.readFile(file.full) });
  }
  return { name: entry.name, rel, files };
}

/**
 * Reads every channel folder under `dir`. Files at the top level are ignored
 * (room for a README); so are files other than channel.md in a channel folder.
 * @returns null when `dir` does not exist: a site without content/ is valid.
 */
export async function readContentTree(dir: string): Promise<ChannelFolder[] | null> {
  let top: Entry[];
  try {
    top = await list(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const channels: ChannelFolder[] = [];
  for (const channel of top.filter((e) => e.isDirectory)) {
    const rel = channel.name;
    let channelFile: ContentFile | null = null;
    const articles: ArticleFolder[] = [];
    for (const entry of await list(channel.full)) {
      if (entry.isDirectory) articles.push(await readArticle(entry, `${rel}/${entry.name}`));
      else if (entry.name === CHANNEL_FILE) {
        channelFile = { name: entry.name, rel: `${rel}/${entry.name}`, bytes: await fs.readFile(entry.full) };
      }
    }
    channels.push({ name: channel.name, rel, channelFile, articles });
  }
  return channels;
}

/**
 * The source hash of an article: SHA-256 over its files in name order.
 * Each file contributes its name and length before its bytes, so renaming
 * `en.md` to `fr.md`, or moving text from one file to the next, changes the hash.
 */
export function sourceHash(files: readonly ContentFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(`${file.name}\0${file.bytes.length}\0`);
    hash.update(file.bytes);
  }
  return hash.digest('hex');
}
