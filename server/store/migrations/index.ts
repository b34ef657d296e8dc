/**
 * The ordered list of migrations. Names are permanent: never rename or edit
 * a migration that has shipped; add a new one.
 * @module
 */
import type { Migration } from 'kysely';
import type { RebuildProgress } from '../table-rebuild.ts';
import * as initial from './0001-initial.ts';
import * as publicationEvents from './0002-publication-events.ts';
import * as media from './0003-media.ts';
import * as outputFiles from './0004-output-files.ts';
import * as searchDocuments from './0005-search-documents.ts';
import * as revisionBodies from './0006-revision-bodies.ts';
import * as translationBodies from './0007-translation-bodies.ts';
import * as builtTranslations from './0008-built-translations.ts';
import * as feedImages from './0009-feed-images.ts';
import * as restoreRefusedRevisions from './0010-restore-refused-revisions.ts';
import * as listAnchors from './0011-list-anchors.ts';
import * as linkTargets from './0012-link-targets.ts';
import * as headsBeforeBodies from './0013-heads-before-bodies.ts';
import * as contentlessSearchIndex from './0014-contentless-search-index.ts';
import * as bodyProse from './0015-body-prose.ts';
import * as edgeDeliveries from './0016-edge-deliveries.ts';
import * as bucketObjects from './0017-bucket-objects.ts';
import * as outputFileStamps from './0018-output-file-stamps.ts';
import * as dashboardSignIn from './0019-dashboard-sign-in.ts';
import * as editorAutosaves from './0020-editor-autosaves.ts';
import * as sharedServing from './0021-shared-serving.ts';
import * as stateFeedParts from './0022-state-feed-parts.ts';

/** Every migration by name, applied in name order. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-publication-events': publicationEvents,
  '0003-media': media,
  '0004-output-files': outputFiles,
  '0005-search-documents': searchDocuments,
  '0006-revision-bodies': revisionBodies,
  '0007-translation-bodies': translationBodies,
  '0008-built-translations': builtTranslations,
  '0009-feed-images': feedImages,
  '0010-restore-refused-revisions': restoreRefusedRevisions,
  '0011-list-anchors': listAnchors,
  '0012-link-targets': linkTargets,
  '0013-heads-before-bodies': headsBeforeBodies,
  '0014-contentless-search-index': contentlessSearchIndex,
  '0015-body-prose': bodyProse,
  '0016-edge-deliveries': edgeDeliveries,
  '0017-bucket-objects': bucketObjects,
  '0018-output-file-stamps': outputFileStamps,
  '0019-dashboard-sign-in': dashboardSignIn,
  '0020-editor-autosaves': editorAutosaves,
  '0021-shared-serving': sharedServing,
  '0022-state-feed-parts': stateFeedParts,
};

/**
 * The same migrations, with those that rebuild a large table (`table-rebuild.ts`)
 * telling `onProgress` where they are after every batch.
 */
export function reportingMigrations(onProgress: (progress: RebuildProgress) => void): Record<string, Migration> {
  return {
    ...migrations,
    '0013-heads-before-bodies': { up: (db) => headsBeforeBodies.up(db, { onProgress }), down: headsBeforeBodies.down },
  };
}
