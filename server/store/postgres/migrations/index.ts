/**
 * The Postgres store's migrations, applied in name order. A Postgres
 * database starts at the shape SQLite reached with its 20 migrations
 * (`0001-schema.ts`); later changes add one here and one in
 * `../../migrations/`. Names are permanent.
 * @module
 */
import type { Migration } from 'kysely';
import * as schema from './0001-schema.ts';
import * as sharedServing from './0002-shared-serving.ts';
import * as stateFeedParts from './0003-state-feed-parts.ts';
import * as renderBatches from './0004-render-batches.ts';

/** Every Postgres migration by name. */
export const postgresMigrations: Record<string, Migration> = {
  '0001-schema': schema,
  '0002-shared-serving': sharedServing,
  '0003-state-feed-parts': stateFeedParts,
  '0004-render-batches': renderBatches,
};
