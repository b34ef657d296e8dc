/**
 * Test support for the admin commands: a real, migrated SQLite file in a
 * fresh temp dir and a manual clock, plus a way to create channels the way
 * the API does. Not a test itself; imported by the `*.test.ts` files.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../../server/clock.ts';
import { channelAccess } from '../../server/domain/account/access.ts';
import { toPlanId } from '../../server/domain/account/account.service.ts';
import { saveArticle } from '../../server/domain/article/article-save.ts';
import type { ArticleRow } from '../../server/store/article.table.ts';
import { insertChannelFor } from '../../server/domain/channel/channel.service.ts';
import { findAccountByName } from '../../server/store/account.repository.ts';
import type { ChannelRow } from '../../server/store/channel.table.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';

/** A temp database for one test file. */
export interface TestDeps {
  readonly db: Db;
  readonly clock: ReturnType<typeof manualClock>;
  readonly dir: string;
  /** Closes the database and deletes the temp dir. */
  cleanup(): Promise<void>;
}

/** Opens and migrates a database in a new temp dir, with the clock at 2026-11-22 12:00 UTC. */
export async function openTestDeps(): Promise<TestDeps> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-admin-'));
  const db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  return {
    db,
    clock: manualClock('2026-11-22T12:00:00.000Z'),
    dir,
    async cleanup() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a channel owned by an existing account, through the same path as the API (owner membership included). */
export async function createTestChannel(deps: TestDeps, ownerName: string, slug: string): Promise<ChannelRow> {
  const owner = await findAccountByName(deps.db, ownerName);
  if (!owner) throw new Error(`test setup: no account ${ownerName}`);
  return deps.db.transaction().execute((trx) =>
    insertChannelFor(trx, deps.clock, { accountId: owner.id, plan: toPlanId(owner.plan) }, {
      slug,
      default_language: 'en',
      translations: [{ language: 'en', title: slug }],
    }),
  );
}

/**
 * Saves a published one-language article ("Body.") as `ownerName` in the
 * channel, through the same save as the API (`saveArticle`), leaving its
 * revision pending moderation. `extra` overrides fields of the request.
 */
export async function publishTestArticle(deps: TestDeps, ownerName: string, channelSlug: string, slug: string, extra: Record<string, unknown> = {}): Promise<ArticleRow> {
  const owner = await findAccountByName(deps.db, ownerName);
  if (!owner) throw new Error(`test setup: no account ${ownerName}`);
  const principal = { accountId: owner.id, accountName: owner.name, plan: toPlanId(owner.plan), keyId: 0 };
  const { article } = await deps.db.transaction().execute(async (trx) =>
    saveArticle(trx, deps, await channelAccess(trx, principal, channelSlug), {
      slug,
      default_language: 'en',
      status: 'published',
      translations: [{ language: 'en', title: slug, content_markdown: 'Body.' }],
      ...extra,
    } as never),
  );
  return article;
}
