import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelAccess } from '../domain/account/access.ts';
import { authenticate } from '../domain/account/account.service.ts';
import { findMembership } from '../store/channel.repository.ts';
import { changePlan } from './account-commands.ts';
import { inviteEditor, listChannels } from './channel-commands.ts';
import { createKey } from './key-commands.ts';
import { summarize } from './summary-command.ts';
import { createTestChannel, openTestDeps, type TestDeps } from '../../test/support/admin-deps.ts';

let t: TestDeps;
let bobKey: string;
beforeEach(async () => {
  t = await openTestDeps();
  await createKey(t, { account: 'ana' });
  bobKey = (await createKey(t, { account: 'bob' })).key;
  await createTestChannel(t, 'ana', 'tech');
});
afterEach(async () => t.cleanup());

describe('inviteEditor', () => {
  it('makes an editor who may write but not manage, by default', async () => {
    const result = await inviteEditor(t, { channel: 'tech', account: 'bob' });
    expect(result.created).toBe(true);
    expect(result.stdout).toBe('Invited "bob" to channel "tech" as editor (write articles: yes, manage channel: no).\n');
    const access = await channelAccess(t.db, await authenticate(t, bobKey), 'tech');
    expect(access).toMatchObject({ canWriteArticles: true, canManageChannel: false });
  });

  it('applies the flags given and keeps the others when inviting again', async () => {
    await inviteEditor(t, { channel: 'tech', account: 'bob', write: false });
    const again = await inviteEditor(t, { channel: 'tech', account: 'bob', manage: true });
    expect(again.created).toBe(false);
    expect(again.stdout).toContain('Updated "bob" in channel "tech" (write articles: no, manage channel: yes)');
    const channelId = (await t.db.selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
    const bobId = (await authenticate(t, bobKey)).accountId;
    expect(await findMembership(t.db, channelId, bobId)).toMatchObject({ role: 'editor', can_write_articles: 0, can_manage_channel: 1 });
  });

  it('refuses to invite the owner, an unknown account or into an unknown channel', async () => {
    await expect(inviteEditor(t, { channel: 'tech', account: 'ana' })).rejects.toMatchObject({ message: expect.stringContaining('owns the channel "tech"') });
    await expect(inviteEditor(t, { channel: 'tech', account: 'zoe' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(inviteEditor(t, { channel: 'nope', account: 'bob' })).rejects.toMatchObject({ code: 'CHANNEL_NOT_FOUND' });
  });

  it('notes when the invited account cannot publish through the API', async () => {
    await createKey(t, { account: 'rita', plan: 'reader' });
    expect((await inviteEditor(t, { channel: 'tech', account: 'rita' })).stderr).toContain('plan reader, which has no API publishing');
  });
});

describe('listChannels and summarize', () => {
  it('lists each channel with owner, status and editors with their permissions', async () => {
    await inviteEditor(t, { channel: 'tech', account: 'bob', manage: true });
    await createTestChannel(t, 'bob', 'food');
    await changePlan(t, { account: 'bob', plan: 'reader' });
    const lines = (await listChannels(t)).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CHANNEL\s+OWNER\s+STATUS\s+EDITORS$/);
    expect(lines[1]).toMatch(/^tech\s+ana\s+active\s+bob \(write, manage\)$/);
    expect(lines[2]).toMatch(/^food\s+bob\s+active, read-only\s+-$/);
  });

  it('summarizes accounts, key prefixes and channels', async () => {
    await inviteEditor(t, { channel: 'tech', account: 'bob' });
    const text = (await summarize(t)).stdout;
    expect(text).toMatch(/^Accounts \(2\)\n {2}ana\s+free\s+1 owned\n {2}bob\s+free\s+0 owned\n/);
    expect(text).toMatch(/Keys \(2\)\n {2}prk_\S{8}\s+ana\n {2}prk_\S{8}\s+bob\n/);
    expect(text).toMatch(/Channels \(1\)\n {2}tech\s+owner ana\s+active\s+1 editor\n$/);
    expect(text).not.toContain(bobKey);
  });

  it('says how channels are made when there is none', async () => {
    const empty = await openTestDeps();
    try {
      expect((await listChannels(empty)).stdout).toContain('No channels yet');
      expect((await summarize(empty)).stdout).toContain('Channels (0)\n  (none)');
    } finally {
      await empty.cleanup();
    }
  });
});
