/**
 * The builder's dependency map, as Eleventy keeps one: for each kind of
 * owner (a set of files the manifest records together), what its files are
 * a function of, which publication events make them stale, and how a build
 * knows it may leave them as they are. The event scope (`event-scope.ts`)
 * reads which owners an event names from here, the input hashes
 * (`owner-inputs.ts`) hash the inputs named here in this order, and the
 * render memo (`render-memo.ts`) serves the kinds that say so.
 * `owner-kinds.test.ts` checks the map against the code that follows it.
 * @module
 */
import type { PublicationEventKind } from '../../store/publication-event.repository.ts';
import { InternalError, invariant } from '../../internal-error.ts';

/** The kinds of owner: an article's files, a channel's files, a channel's cursor pages, the site's files. */
export type OwnerKind = 'article' | 'channel' | 'pages' | 'site';

/**
 * Which owners of a kind an event makes stale: the article it names, every
 * article of its channel, its channel, every owner of the kind, or none.
 */
export type StaleScope = 'its article' | 'articles of its channel' | 'its channel' | 'all' | 'none';

/** What a kind of owner depends on, and how its staleness is known. */
export interface OwnerKindRule {
  /**
   * What its files are a function of, in the order its input hash takes
   * them: `code` (the rendering code's fingerprint), `site` (the site
   * settings), and the kind's own read-model values.
   */
  readonly inputs: readonly string[];
  /** For each publication event, the owners of this kind it makes stale. */
  readonly staleWhen: Readonly<Record<PublicationEventKind, StaleScope>>;
  /**
   * How a full build may skip an owner: by the input hash recorded with its
   * files (`build_owners`), and per file by the render memo (every value a
   * file's render read is the same object as at its last render).
   */
  readonly skippedBy: { readonly inputHash: boolean; readonly renderMemo: boolean };
}

/** The map. */
export const OWNER_KINDS: Readonly<Record<OwnerKind, OwnerKindRule>> = Object.freeze({
  article: {
    // `head`: every field its pages, JSON and Markdown show, its channel included; `bodies`: each published
    // translation's content hash.
    inputs: ['code', 'site', 'head', 'bodies'],
    // Its channel's name and links show on every page of it.
    staleWhen: { article_public_changed: 'its article', article_homepage_changed: 'its article', channel_changed: 'articles of its channel' },
    skippedBy: { inputHash: true, renderMemo: false },
  },
  channel: {
    // `members`: each public article's input hash, in the group's order.
    inputs: ['owner', 'code', 'site', 'cursorKey', 'channel', 'members'],
    staleWhen: { article_public_changed: 'its channel', article_homepage_changed: 'its channel', channel_changed: 'its channel' },
    skippedBy: { inputHash: true, renderMemo: true },
  },
  pages: {
    // `anchors`: the positions each list pages through (an incremental build plans only the pages around a change).
    inputs: ['owner', 'code', 'site', 'cursorKey', 'channel', 'members', 'anchors'],
    staleWhen: { article_public_changed: 'its channel', article_homepage_changed: 'its channel', channel_changed: 'its channel' },
    skippedBy: { inputHash: true, renderMemo: true },
  },
  site: {
    // The homepage, the sitemap index, the channel lists and llms.txt show every channel and each one's newest articles.
    inputs: ['code', 'site', 'channels', 'groups'],
    staleWhen: { article_public_changed: 'all', article_homepage_changed: 'all', channel_changed: 'all' },
    skippedBy: { inputHash: false, renderMemo: true },
  },
});

/** The owners of `kind` an event of `event` kind makes stale. */
export function staleScope(kind: OwnerKind, event: PublicationEventKind): StaleScope {
  return OWNER_KINDS[kind].staleWhen[event];
}

/** `values` in the order `kind`'s input hash takes them (`OWNER_KINDS[kind].inputs`); each named input must be given. */
export function orderedInputs(kind: OwnerKind, values: Readonly<Record<string, unknown>>): unknown[] {
  return OWNER_KINDS[kind].inputs.map((name) => {
    invariant(name in values, `owner-kinds: the ${kind} input hash was given no "${name}"`);
    return values[name];
  });
}

/** The kind of an owner key (`site-plan.ts`: `article:{id}`, `channel:{id}`, `pages:{id}`, `site`). */
export function ownerKindOf(owner: string): OwnerKind {
  const kind = owner.slice(0, owner.indexOf(':') >>> 0);
  if (kind === 'article' || kind === 'channel' || kind === 'pages' || kind === 'site') return kind;
  throw new InternalError('INVARIANT_BROKEN', `owner-kinds: "${owner}" is not an owner key`);
}
