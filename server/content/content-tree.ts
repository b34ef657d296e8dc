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
import { constants as fsConstants, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../describe-error.ts';

/** File name of a channel's settings. */
export const CHANNEL_FILE = 'channel.md';

/**
 * The largest file read from content/: 8 MiB, twice what the longest body
 * the limits accept (1,000,000 characters of Markdown) can take in UTF-8,
 * with room for its front matter. A larger file is refused unread.
 */
export const MAX_CONTENT_FILE_BYTES = 8 * 1024 * 1024;

/** One file, read whole. */
export interface ContentFile {
  /** File name, e.g. `en.md`. */
  readonly name: string;
  /** Path relative to the content folder, e.g. `journal/hello/en.md`. */
  readonly rel: string;
  readonly bytes: Buffer;
}

/** An entry of content/ that was not read, and why (the importer reports it). */
export interface RefusedEntry {
  /** Path relative to the content folder; a folder ends with `/`. */
  readonly file: string;
  readonly message: string;
}

/** An article folder and its `.md` files, sorted by name. */
export interface ArticleFolder {
  readonly name: string;
  readonly rel: string;
  readonly files: readonly ContentFile[];
  /** Its `.md` entries that are not regular files, or too large: the article is not applied while there are any. */
  readonly refused: readonly RefusedEntry[];
}

/** A channel folder: its `channel.md` (null when missing or refused) and its article folders. */
export interface ChannelFolder {
  readonly name: string;
  readonly rel: string;
  readonly channelFile: ContentFile | null;
  /** Why `channel.md` was not read, when it exists but is not a regular file or is too large. */
  readonly channelFileRefused: RefusedEntry | null;
  readonly articles: readonly ArticleFolder[];
  /** Entries that stand where article folders would (links, devices, FIFOs…): never followed. */
  readonly refused: readonly RefusedEntry[];
}

/** The whole of content/. */
export interface ContentTree {
  readonly channels: readonly ChannelFolder[];
  /** Entries at the top that stand where channel folders would, and were not followed. */
  readonly refused: readonly RefusedEntry[];
}

/** What an entry is, seen with `lstat` (a link is a link, never what it points to). */
type EntryKind = 'directory' | 'file' | 'link' | 'special';

interface Entry {
  readonly name: string;
  readonly full: string;
  readonly kind: EntryKind;
}

function kindOf(stat: Stats): EntryKind {
  if (stat.isSymbolicLink()) return 'link';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFile()) return 'file';
  return 'special';
}

/** Why an entry that is not a regular file or folder is left alone, for the editor. */
function refusal(kind: EntryKind, what: string): string {
  return kind === 'link'
    ? `Skipped: a symbolic link. content/ imports only regular ${what} inside the folder, so a link can neither bring in a file from outside nor stall the import. Replace it with the file itself.`
    : `Skipped: not a regular ${what === 'files' ? 'file' : 'folder'} (a FIFO, socket or device). content/ imports only regular files and folders.`;
}

/**
 * Lists a folder with `lstat`, sorted by name so imports run in a stable
 * order. Dot entries (`.git`, `.DS_Store`) are skipped. Links are not
 * followed: a git checkout can carry one, and a link to `/dev/zero`, a FIFO
 * or a file outside the folder must neither stall the start nor publish
 * what lies outside.
 */
async function list(dir: string): Promise<Entry[]> {
  const names = (await fs.readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  const entries: Entry[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const stat = await fs.lstat(full).catch(() => null); // gone since the listing
    if (stat) entries.push({ name, full, kind: kindOf(stat) });
  }
  return entries;
}

/** O_NOFOLLOW where the platform has it: a file swapped for a link after the listing is refused by the open itself. */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;
/** O_NONBLOCK: a FIFO swapped in after the listing does not block the open. */
const NO_BLOCK = fsConstants.O_NONBLOCK ?? 0;

/**
 * Reads a regular file of at most {@link MAX_CONTENT_FILE_BYTES}, or says
 * why not. The checks are made on the open descriptor, so a file replaced
 * by a link or a FIFO between the listing and the read is refused too.
 */
async function readRegularFile(full: string, rel: string): Promise<ContentFile | RefusedEntry> {
  let handle: FileHandle;
  try {
    handle = await fs.open(full, fsConstants.O_RDONLY | NO_FOLLOW | NO_BLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { file: rel, message: refusal('link', 'files') };
    return { file: rel, message: `Skipped: it could not be opened (${code ?? describeError(error)}).` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { file: rel, message: refusal('special', 'files') };
    if (stat.size > MAX_CONTENT_FILE_BYTES) return { file: rel, message: tooLarge(stat.size) };
    // Read one byte past the cap: a file that grows while it is read is refused, not cut.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_CONTENT_FILE_BYTES) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_CONTENT_FILE_BYTES) return { file: rel, message: tooLarge(length) };
      if (length === buffer.length) break;
    }
    return { name: path.basename(rel), rel, bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

function tooLarge(bytes: number): string {
  return `Skipped: ${(bytes / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_CONTENT_FILE_BYTES / 1024 / 1024} MB a content file may have (a body may hold 1,000,000 characters). Split the text or shorten it.`;
}

const isRefused = (read: ContentFile | RefusedEntry): read is RefusedEntry => 'message' in read;

async function readArticle(entry: Entry, rel: string): Promise<ArticleFolder> {
  const files: ContentFile[] = [];
  const refused: RefusedEntry[] = [];
  // Other files and sub-folders are left alone: they are not imported.
  for (const file of await list(entry.full)) {
    if (!file.name.endsWith('.md') || file.kind === 'directory') continue;
    const fileRel = `${rel}/${file.name}`;
    if (file.kind !== 'file') {
      refused.push({ file: fileRel, message: refusal(file.kind, 'files') });
      continue;
    }
    const read = await readRegularFile(file.full, fileRel);
    if (isRefused(read)) refused.push(read);
    else files.push(read);
  }
  return { name: entry.name, rel, files, refused };
}

/**
 * Reads every channel folder under `dir`. Files at the top level are ignored
 * (room for a README); so are files other than channel.md in a channel folder.
 * Only regular files and folders inside `dir` are read (`dir` itself may be
 * a link: the operator chose it); every other entry where a channel,
 * article or `.md` file would be is refused and listed.
 * @returns null when `dir` does not exist: a site without content/ is valid.
 */
export async function readContentTree(dir: string): Promise<ContentTree | null> {
  let top: Entry[];
  try {
    top = await list(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const channels: ChannelFolder[] = [];
  const refusedTop: RefusedEntry[] = [];
  for (const channel of top) {
    if (channel.kind === 'file') continue;
    if (channel.kind !== 'directory') {
      refusedTop.push({ file: `${channel.name}/`, message: refusal(channel.kind, 'folders') });
      continue;
    }
    const rel = channel.name;
    let channelFile: ContentFile | null = null;
    let channelFileRefused: RefusedEntry | null = null;
    const articles: ArticleFolder[] = [];
    const refused: RefusedEntry[] = [];
    for (const entry of await list(channel.full)) {
      if (entry.kind === 'directory') articles.push(await readArticle(entry, `${rel}/${entry.name}`));
      else if (entry.name === CHANNEL_FILE) {
        const read = entry.kind === 'file' ? await readRegularFile(entry.full, `${rel}/${entry.name}`) : { file: `${rel}/${entry.name}`, message: refusal(entry.kind, 'files') };
        if (isRefused(read)) channelFileRefused = read;
        else channelFile = read;
      } else if (entry.kind !== 'file') refused.push({ file: `${rel}/${entry.name}/`, message: refusal(entry.kind, 'folders') });
    }
    channels.push({ name: channel.name, rel, channelFile, channelFileRefused, articles, refused });
  }
  return { channels, refused: refusedTop };
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
