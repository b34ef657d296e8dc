/**
 * What the static builder remembers between builds, as one object: the
 * public state the output was last built from (the article index, the
 * channels, the list anchors, each article's input hash), what the files of
 * each rendered article show until the build is recorded, the memo of
 * rendered list files, and which full build it last knew of. Everything here may be dropped (`forget`) at
 * the cost of reading the store again; nothing here is the truth, the store
 * and the manifest are.
 * @module
 */
import type { ArticleIndex } from '../../read-model/article-index.ts';
import type { PublicState } from '../../read-model/public-state.ts';
import type { PublicChannel } from '../../read-model/view-models.ts';
import { ListAnchorBook } from './list-anchor-book.ts';
import { createRenderMemo, type RenderMemo } from './render-memo.ts';
import { invariant } from '../../internal-error.ts';

/** The builder's memory. */
export class BuilderState {
  /** Every public article by id, without bodies, and each channel's group; null until read. */
  index: ArticleIndex | null = null;
  /** The public channels as last built, oldest first; null until read. */
  channels: readonly PublicChannel[] | null = null;
  /** Each list's anchors (loaded from `list_anchors` once). */
  readonly anchors = new ListAnchorBook();
  /** The channel object each channel's cursor pages were last planned whole with (narrow plans need the same one). */
  readonly pagesPlannedWith = new Map<number, PublicChannel>();
  /** Each public article's input hash (`owner-inputs.ts`), as its owner was last loaded or applied: list owners' input hashes are made of them. */
  readonly articleHashes = new Map<number, string>();
  /** List and site files whose inputs did not change since their last render. */
  readonly memo: RenderMemo = createRenderMemo();
  /** Every public change of the publication events up to this id shows in what is held (0: nothing held yet). */
  through = 0;
  #knownFullBuild: string | undefined;
  #shown = new Map<number, Readonly<Record<string, string>>>();

  /** Whether the whole public state is held (`publicState()` answers without reading). */
  get complete(): boolean {
    return this.index !== null && this.channels !== null && this.anchors.loaded;
  }

  /** The public state as last built. @throws Error when not `complete`. */
  publicState(): PublicState {
    invariant(this.index && this.channels, 'The builder holds no public state yet: load it first.');
    return { channels: this.channels, articles: this.index.articles, byChannel: this.index.groups(), anchors: this.anchors.all(), through: this.through };
  }

  /** Records what article `id`'s files show now: its content hash by language (empty: nothing). */
  show(id: number, contentHashes: Readonly<Record<string, string>>): void {
    this.#shown.set(id, contentHashes);
  }

  /** Starts over what a build shows with `shown` (a full build: every public article, as the store has it). */
  showOnly(shown: Iterable<readonly [number, Readonly<Record<string, string>>]>): void {
    this.#shown = new Map(shown);
  }

  /** What the files show since the last call, to record with the build (`built_translations`). */
  takeShown(): Map<number, Readonly<Record<string, string>>> {
    const shown = this.#shown;
    this.#shown = new Map();
    return shown;
  }

  /**
   * Follows the last full build recorded in the store (`last`). When it is
   * not the one this state knows and anything was read before, another
   * process built the whole site meanwhile: what is held is stale and is
   * dropped. @returns true when it was dropped.
   */
  followFullBuild(last: string | undefined): boolean {
    if (last === this.#knownFullBuild) return false;
    const stale = this.#knownFullBuild !== undefined || this.index !== null;
    if (stale) this.forget();
    this.#knownFullBuild = last;
    return stale;
  }

  /** Notes a full build this builder made (`id`, also written to the store). */
  madeFullBuild(id: string): void {
    this.#knownFullBuild = id;
  }

  /** Drops everything read from the store; the next build reads it again. */
  forget(): void {
    this.index = null;
    this.channels = null;
    this.through = 0;
    this.anchors.forget();
    this.pagesPlannedWith.clear();
    this.articleHashes.clear();
    this.memo.clear();
  }
}
