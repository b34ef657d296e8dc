import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { channelAccess } from '../domain/account/access.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import { insertChannelFor } from '../domain/channel/channel.service.ts';
import { createLogger } from '../logger.ts';
import { createPublicModel } from '../read-model/public-model.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { readSetting } from '../store/instance-setting.repository.ts';
import { lastEventId } from '../store/publication-event.repository.ts';
import { documentVersions } from '../store/search-document.repository.ts';
import { createPublicUrls } from '../urls/public-urls.ts';
import { createSearchKeeper, type SearchKeeperDeps } from './search-keeper.ts';

let dir: string;
let db: Db;
const urls = createPublicUrls('http://pressroom.test', 'http://pressroom.test');

async function publish(slug: string, title: string): Promise<void> {
  const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
  const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  await db.transaction().execute(async (trx) =>
    saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, 'news'), {
      slug,
      default_language: 'en',
      translations: [{ language: 'en', title, content_markdown: `${title} body.\n`, status: 'published' }],
    }, { mode: 'trusted' }),
  );
}

/** A keeper over the real store and public model, counting how often it reads the whole public state. */
async function keeper(overrides: Partial<SearchKeeperDeps> = {}) {
  const model = createPublicModel({ db, urls });
  const reads = { state: 0 };
  const state = async (): Promise<PublicState> => {
    reads.state++;
    const through = await lastEventId(db);
    const heads = await model.heads({});
    return { channels: await model.channels(), articles: new Map(heads.map((h) => [h.summary.id, h.summary])), byChannel: new Map(), anchors: new Map(), through };
  };
  const k = await createSearchKeeper({ db, state, loadTexts: (ids) => model.texts({ ids }), lastEventId: () => lastEventId(db), log: createLogger('silent'), ...overrides });
  return { k, reads };
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-keeper-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
  const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  await db.transaction().execute((trx) => insertChannelFor(trx, systemClock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] }));
  await publish('one', 'One');
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the search keeper at start', () => {
  it('says how far a long first sync is, every tenth of the articles it writes', async () => {
    for (let i = 0; i < 249; i++) await publish(`a-${i}`, `Article ${i}`);
    const lines: string[] = [];
    const { k } = await keeper({ log: createLogger('info', 'search', (l) => lines.push(l)), progressMinArticles: 200 });
    await k.syncAll();
    // 250 articles in batches of 100: a line after the first and the second batch, none after the last.
    expect(lines.filter((l) => l.includes('search index progress')).map((l) => / articles=(\d+) of=250 documents=(\d+) /.exec(l)?.slice(1))).toEqual([
      ['100', '100'],
      ['200', '200'],
    ]);
    expect(lines.some((l) => l.includes('search index synced') && l.includes('written=250'))).toBe(true);
  }, 60_000);


  it('compares every document the first time, then, with no event since, trusts what it recorded', async () => {
    const first = await keeper();
    await first.k.syncAll();
    expect(first.reads.state).toBe(1);
    expect([...(await documentVersions(db)).keys()]).toHaveLength(1);
    expect(await readSetting(db, 'search_index_through')).toMatch(new RegExp(`\\|${await lastEventId(db)}$`));
    // A restart: nothing was announced since, so the whole public state is not read.
    const again = await keeper();
    await again.k.syncAll();
    expect(again.reads.state).toBe(0);
    expect(again.k.ready()).toBe(true);
  });

  it('compares again when an event came after the last sync, and indexes what it announced', async () => {
    await (await keeper()).k.syncAll();
    await publish('two', 'Two');
    const again = await keeper();
    await again.k.syncAll();
    expect(again.reads.state).toBe(1);
    expect([...(await documentVersions(db)).keys()]).toHaveLength(2);
  });

  it('records a build\'s articles as in step only after a full sync of its own process', async () => {
    await (await keeper()).k.syncAll();
    const recorded = await readSetting(db, 'search_index_through');
    await publish('two', 'Two');
    const restarted = await keeper();
    // A build finished before this process's first full sync: its articles are synced, nothing is recorded.
    const twoId = (await db.selectFrom('articles').select('id').where('slug', '=', 'two').executeTakeFirstOrThrow()).id;
    await restarted.k.syncArticles([twoId], await lastEventId(db));
    expect(await readSetting(db, 'search_index_through')).toBe(recorded);
    const before = restarted.reads.state;
    await restarted.k.syncAll();
    expect(restarted.reads.state).toBe(before + 1);
    await publish('three', 'Three');
    const threeId = (await db.selectFrom('articles').select('id').where('slug', '=', 'three').executeTakeFirstOrThrow()).id;
    await restarted.k.syncArticles([threeId], await lastEventId(db));
    expect(await readSetting(db, 'search_index_through')).toMatch(new RegExp(`\\|${await lastEventId(db)}$`));
  });

  it('forgets the record when a sync fails, so the next start compares everything', async () => {
    const model = createPublicModel({ db, urls });
    let fail = false;
    const first = await keeper({ loadTexts: async (ids) => {
      if (fail) throw new Error('disk on fire');
      return model.texts({ ids });
    } });
    await first.k.syncAll();
    await publish('two', 'Two');
    fail = true;
    const twoId = (await db.selectFrom('articles').select('id').where('slug', '=', 'two').executeTakeFirstOrThrow()).id;
    await first.k.syncArticles([twoId], await lastEventId(db));
    expect(await readSetting(db, 'search_index_through')).toBe('');
    const again = await keeper();
    await again.k.syncAll();
    expect(again.reads.state).toBe(1);
    expect([...(await documentVersions(db)).keys()]).toHaveLength(2);
  });
});
