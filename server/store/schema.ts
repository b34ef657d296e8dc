/** The whole database as kysely sees it. @module */
import type { AccountTable, ApiKeyTable } from './account.table.ts';
import type { ArticleTable, ArticleTranslationTable, RevisionTable } from './article.table.ts';
import type { ChannelMemberTable, ChannelTable, ChannelTranslationTable } from './channel.table.ts';
import type { BuiltTranslationTable } from './built-translation.table.ts';
import type { ListAnchorTable } from './list-anchor.table.ts';
import type { EdgeDeliveryTable } from './edge-delivery.table.ts';
import type { BucketObjectTable } from './bucket-object.table.ts';
import type { JobTable } from './job.table.ts';
import type { MediaTable } from './media.table.ts';
import type { PublicationEventTable } from './publication-event.table.ts';
import type { InstanceSettingTable } from './instance-setting.table.ts';
import type { OutputFileTable } from './output-file.table.ts';
import type { SearchDocumentTable, SearchFtsTable } from './search-document.table.ts';
import type { AccountPasswordTable, AdministratorTable, SessionTable } from './session.table.ts';
import type { EditorAutosaveTable } from './editor-autosave.table.ts';
import type { RateLimitHitTable, StateFeedPartTable, StateFeedTable } from './state-feed.table.ts';

/** Table name → row type. */
export interface Database {
  accounts: AccountTable;
  api_keys: ApiKeyTable;
  channels: ChannelTable;
  channel_translations: ChannelTranslationTable;
  channel_members: ChannelMemberTable;
  articles: ArticleTable;
  article_translations: ArticleTranslationTable;
  revisions: RevisionTable;
  media: MediaTable;
  jobs: JobTable;
  instance_settings: InstanceSettingTable;
  publication_events: PublicationEventTable;
  output_files: OutputFileTable;
  search_documents: SearchDocumentTable;
  search_fts: SearchFtsTable;
  built_translations: BuiltTranslationTable;
  list_anchors: ListAnchorTable;
  edge_deliveries: EdgeDeliveryTable;
  bucket_objects: BucketObjectTable;
  account_passwords: AccountPasswordTable;
  sessions: SessionTable;
  administrators: AdministratorTable;
  editor_autosaves: EditorAutosaveTable;
  state_feed: StateFeedTable;
  state_feed_parts: StateFeedPartTable;
  rate_limit_hits: RateLimitHitTable;
}
