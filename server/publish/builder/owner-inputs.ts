/**
 * What an owner's files are a function of, as one hash. An article owner's:
 * its head (every field its pages, JSON and Markdown show, its channel
 * included), the content hash of each published body, the site settings and
 * the code that renders. A channel's list owners': the channel, each member
 * article's input hash in group order, the lists' anchors, the cursor key,
 * the site settings and the code. Equal hashes mean equal files, so a full
 * build may skip the owner.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../paths.ts';
import { memoByIdentity } from '../../read-model/identity-memo.ts';
import type { PublicArticleSummary, PublicChannel, SiteInfo } from '../../read-model/view-models.ts';
import type { ArticleHead } from '../../read-model/public-model.ts';
import { orderedInputs, ownerKindOf } from './owner-kinds.ts';

/**
 * Sources whose change may change a rendered file: the renderers, the body
 * pipeline, the URL layout, the read model and the build's plans; and the
 * locked dependency versions (remark, Astro). `src/` is covered by Astro's
 * build hash. `owner-inputs.test.ts` checks that every one exists.
 */
export const RENDER_SOURCES: readonly string[] = ['server/render', 'server/read-model', 'server/domain/body', 'server/urls', 'server/serving', 'server/publish/builder', 'package-lock.json'];

/**
 * A hash of the rendering code (see RENDER_SOURCES), read once per process.
 * When the sources cannot be read (a packaged install), a random value: every
 * owner is then rendered once per process, which is slow but never wrong.
 */
export function renderCodeFingerprint(root = PROJECT_ROOT): string {
  const hash = createHash('sha256');
  try {
    for (const source of RENDER_SOURCES) {
      const full = path.join(root, source);
      const files = fs.statSync(full).isDirectory()
        ? fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort().map((f) => path.join(full, f))
        : [full];
      for (const file of files) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  } catch {
    return `unreadable:${randomBytes(16).toString('hex')}`;
  }
  return hash.digest('hex');
}

/** The input hash of an article owner (see module doc). */
export function articleInputHash(head: ArticleHead, site: SiteInfo, fingerprint: string): string {
  // The channel (~1 KB of JSON, the same object for every head of a build) is written out once per object.
  const own = JSON.stringify(orderedInputs('article', { code: fingerprint, site, head: { ...head.summary, channel: head.summary.channel.id }, bodies: head.contentHashes }));
  return createHash('sha256').update(channelJson(head.summary.channel)).update('\0').update(own).digest('hex');
}

const channelJson = memoByIdentity((channel: PublicChannel) => JSON.stringify(channel));

/** What a channel's list owner is planned from, beside the code (`fingerprint`) and the site. */
export interface ListOwnerInputs {
  /** The owner (`channel:{id}` or `pages:{id}`): the same inputs make different files for each. */
  readonly owner: string;
  readonly channel: PublicChannel;
  /** The channel's public articles, in the group's order. */
  readonly members: readonly PublicArticleSummary[];
  /** Each public article's input hash (`articleInputHash`), by id. */
  readonly articleHashes: ReadonlyMap<number, string>;
  /** The anchors of each list the owner pages through, by scope (cursor pages only). */
  readonly anchors?: ReadonlyArray<readonly [string, readonly unknown[]]>;
  /** A value that changes with the cursor key (a token of a fixed position): cursor pages are named by keyed hashes. */
  readonly cursorKey: string;
  readonly site: SiteInfo;
  readonly fingerprint: string;
}

/**
 * The input hash of a channel's list owner (see module doc), of the inputs
 * `OWNER_KINDS` names for its kind in that order, or null when a
 * member's article hash is unknown (its owner was not applied in this
 * process): the owner is then rendered.
 */
export function listOwnerInputHash(inputs: ListOwnerInputs): string | null {
  let members = '';
  for (const member of inputs.members) {
    const own = inputs.articleHashes.get(member.id);
    if (own === undefined) return null;
    members += `${member.id}:${own}\n`;
  }
  const anchors = (inputs.anchors ?? []).map(([scope, positions]) => `${scope}\0${JSON.stringify(positions)}`).join('\0');
  const values = {
    owner: inputs.owner,
    code: inputs.fingerprint,
    site: JSON.stringify(inputs.site),
    cursorKey: inputs.cursorKey,
    channel: channelJson(inputs.channel),
    members,
    anchors,
  };
  const hash = createHash('sha256');
  for (const value of orderedInputs(ownerKindOf(inputs.owner), values)) hash.update(value as string).update('\0');
  return hash.digest('hex');
}
