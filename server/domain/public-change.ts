/**
 * The one way a write announces that what readers may see changed: a row in
 * the outbox (`publication_events`), written in the write's own transaction,
 * which the static builder turns into files (docs/ARCHITECTURE.md, "A write,
 * step by step"). A change that is not announced here never reaches the
 * output, so every service that changes public content calls this.
 * @module
 */
import type { Executor } from '../store/database.ts';
import { insertPublicationEvent } from '../store/publication-event.repository.ts';

/** What changed, as the builder needs to know it. */
export type PublicChange =
  /** A translation became public, changed its public version, or stopped being public (`languages`: which; empty when unknown). */
  | { readonly kind: 'article'; readonly channelId: number; readonly articleId: number; readonly languages?: readonly string[] }
  /** An article's homepage visibility changed while public. */
  | { readonly kind: 'article_homepage'; readonly channelId: number; readonly articleId: number }
  /** A channel's public fields, status, images or homepage setting changed: every page of its articles may show it. */
  | { readonly kind: 'channel'; readonly channelId: number };

/** Announces `change`; call inside the transaction that made it, with that transaction. */
export async function announcePublicChange(trx: Executor, change: PublicChange, now: string): Promise<void> {
  switch (change.kind) {
    case 'article':
      return insertPublicationEvent(trx, { kind: 'article_public_changed', channelId: change.channelId, articleId: change.articleId, languages: change.languages ?? [], now });
    case 'article_homepage':
      return insertPublicationEvent(trx, { kind: 'article_homepage_changed', channelId: change.channelId, articleId: change.articleId, languages: [], now });
    case 'channel':
      return insertPublicationEvent(trx, { kind: 'channel_changed', channelId: change.channelId, articleId: null, languages: [], now });
  }
}
