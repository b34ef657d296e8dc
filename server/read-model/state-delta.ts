/**
 * The public state carried from the build thread to the request thread.
 *
 * The builder runs on a thread of its own (`publish/build-thread.ts`), and
 * the read API answers from the public state the output was last built from
 * (`PublicState`). The request thread keeps a copy of it (a mirror), made
 * from what each build changed: the build thread compares its state with
 * what it last sent, object by object (the builder replaces an article's
 * summary, a channel list or a list's anchors whenever they change, and
 * leaves them the same object otherwise), and sends only what differs. Of
 * the articles it compares only those the builder's index set since the last
 * delta (the index's journal, `takeChangedIds`), so a publish costs the same
 * at 1,000 articles as at 100,000. The
 * mirror applies that, so its unchanged parts stay the same objects too, and
 * what readers derive from them once per change (`identity-memo.ts`, the
 * answer cache) holds across builds, as it does on the builder's own state.
 *
 * Both sides are pure; the thread between them only copies the deltas
 * (structured clone).
 * @module
 */
import { createArticleIndex, takeChangedIds, type ArticleIndex } from './article-index.ts';
import type { ListPosition } from './list-pages.ts';
import type { PublicState } from './public-state.ts';
import type { PublicArticleSummary, PublicChannel } from './view-models.ts';

/** What changed in the public state since the last delta. */
export interface StateDelta {
  /** The receiver drops what it holds first (the first delta, or after the sender forgot what it sent). */
  readonly whole: boolean;
  /**
   * The public channels, when they changed (`channelsChanged`) or articles are sent: an article's `channel`
   * is then one of these objects whenever it was one of the sender's, which a copy keeps within one message.
   */
  readonly channels?: readonly PublicChannel[];
  /** Whether the channels are another list than last sent (else they are sent only to link the articles). */
  readonly channelsChanged: boolean;
  /** Articles new or changed since the last delta. */
  readonly articles: readonly PublicArticleSummary[];
  /** Articles no longer public. */
  readonly removed: readonly number[];
  /** Lists whose anchors changed, by cursor scope. */
  readonly anchors: ReadonlyArray<readonly [string, readonly ListPosition[]]>;
  readonly through: number;
}

/** The sender's side: what was sent last, to compare the next state with. */
export interface DeltaTracker {
  /** What `state` changes against what was sent last; null when nothing did. Remembers `state` as sent. */
  take(state: PublicState): StateDelta | null;
  /** Forgets what was sent: the next delta is whole (the receiver forgot too, or the state was dropped). */
  reset(): void;
}

/** Creates a tracker with nothing sent yet. */
export function createDeltaTracker(): DeltaTracker {
  let sent: { channels: readonly PublicChannel[]; articles: Map<number, PublicArticleSummary>; anchors: Map<string, readonly ListPosition[]>; through: number } | null = null;
  // This tracker's own journal of the index: two trackers may follow one index (the request thread's, the state feed's).
  const reader = {};
  // The articles map last compared: while the builder keeps the same index, only the ids it set since are.
  let followed: ReadonlyMap<number, PublicArticleSummary> | null = null;
  return {
    take(state) {
      const whole = sent === null;
      const before = sent ?? { channels: [], articles: new Map(), anchors: new Map(), through: 0 };
      const articles: PublicArticleSummary[] = [];
      const removed: number[] = [];
      // What the index set since the last take (an index's journal); every article when it is another map, or
      // when the map is not an index's (no journal). At 10,000 articles comparing all was ~7 ms a take.
      const changed = takeChangedIds(state.articles, reader);
      const known = followed === state.articles && !whole ? changed : undefined;
      followed = state.articles;
      if (known) {
        for (const id of known) {
          const article = state.articles.get(id);
          if (article === undefined) {
            if (before.articles.has(id)) removed.push(id);
          } else if (before.articles.get(id) !== article) articles.push(article);
        }
      } else {
        // The state's maps are changed in place by the builder: the sent copy is a map of its own.
        for (const [id, article] of state.articles) if (before.articles.get(id) !== article) articles.push(article);
        for (const id of before.articles.keys()) if (!state.articles.has(id)) removed.push(id);
      }
      const anchors: Array<readonly [string, readonly ListPosition[]]> = [];
      for (const [scope, positions] of state.anchors) if (before.anchors.get(scope) !== positions) anchors.push([scope, positions]);
      const channelsChanged = whole || before.channels !== state.channels;
      if (!whole && !channelsChanged && articles.length === 0 && removed.length === 0 && anchors.length === 0 && before.through === state.through) return null;
      if (whole) sent = { channels: state.channels, articles: new Map(state.articles), anchors: new Map(state.anchors), through: state.through };
      else {
        for (const a of articles) before.articles.set(a.id, a);
        for (const id of removed) before.articles.delete(id);
        for (const [scope, positions] of anchors) before.anchors.set(scope, positions);
        before.channels = state.channels;
        before.through = state.through;
      }
      return { whole, channelsChanged, ...(channelsChanged || articles.length > 0 ? { channels: state.channels } : {}), articles, removed, anchors, through: state.through };
    },
    reset() {
      sent = null;
      followed = null;
    },
  };
}

/** The receiver's side: a public state made from deltas. */
export interface StateMirror {
  /** Applies a delta (in the order sent). @throws Error when the first one is not whole. */
  apply(delta: StateDelta): void;
  /** The state as of the last delta; null before a whole one. */
  state(): PublicState | null;
  /** Drops what is held; the next delta must be whole. */
  forget(): void;
}

/** Creates an empty mirror. */
export function createStateMirror(): StateMirror {
  let channels: readonly PublicChannel[] | null = null;
  let index: ArticleIndex | null = null;
  let anchors = new Map<string, readonly ListPosition[]>();
  let through = 0;
  let current: PublicState | null = null;
  return {
    apply(delta) {
      if (delta.whole) {
        index = createArticleIndex();
        anchors = new Map();
        channels = null;
      }
      if (!index) throw new Error('The public state mirror holds nothing: its first delta must be whole.');
      if (delta.channelsChanged && delta.channels) channels = Object.freeze(delta.channels.map((c) => Object.freeze(c)));
      if (!channels) throw new Error('The public state mirror has no channels: a whole delta carries them.');
      // An article that pointed at one of the sender's channels points at the mirror's object in that place (the
      // same list when the channels did not change), so the articles and the channels share their objects as on
      // the sender's side; any other channel object (not in the list) stays the article's own copy.
      const ours = new Map<PublicChannel, PublicChannel>();
      if (delta.channels) delta.channels.forEach((c, i) => ours.set(c, channels![i]!));
      for (const a of delta.removed) index.set(a, null);
      for (const a of delta.articles) index.set(a.id, Object.freeze({ ...a, channel: ours.get(a.channel) ?? a.channel }));
      for (const [scope, positions] of delta.anchors) anchors.set(scope, Object.freeze([...positions]));
      through = delta.through;
      current = { channels, articles: index.articles, byChannel: index.groups(), anchors, through };
    },
    state: () => current,
    forget() {
      channels = null;
      index = null;
      anchors = new Map();
      through = 0;
      current = null;
    },
  };
}
