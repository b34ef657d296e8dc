/**
 * `list`: one screen with accounts, keys (prefixes only) and channels, for a
 * quick look; the `… list` commands show the details.
 * @module
 */
import { listAccounts, listApiKeys } from '../store/account.repository.ts';
import { countOwnedChannels, listMembersWithAccounts } from '../store/channel-member.repository.ts';
import { listAllChannels } from '../store/channel.repository.ts';
import { channelCount } from './account-commands.ts';
import { output, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { formatTable, plural } from './table.ts';

const INDENT = '  ';

/** Accounts, keys and channels, one line each, under a heading with their count. */
export async function summarize(deps: AdminDeps): Promise<CommandOutput> {
  const accounts = await listAccounts(deps.db);
  const keys = await listApiKeys(deps.db);
  const channels = await listAllChannels(deps.db);
  const owned = await countOwnedChannels(deps.db);
  const members = await listMembersWithAccounts(deps.db, channels.map((c) => c.id));
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const sections = [
    section(
      'Accounts',
      accounts.map((a) => [a.name, a.plan, `${channelCount(owned.get(a.id) ?? 0, a.plan)} owned`, a.review_required ? 'review required' : '']),
    ),
    section(
      'Keys',
      keys.map((k) => [k.prefix, k.account_name, k.revoked_at ? 'revoked' : '']),
    ),
    section(
      'Channels',
      channels.map((c) => {
        const editors = members.filter((m) => m.channel_id === c.id && m.role === 'editor').length;
        return [c.slug, `owner ${names.get(c.owner_account_id) ?? `#${c.owner_account_id}`}`, c.status, plural(editors, 'editor')];
      }),
    ),
  ];
  return output(sections);
}

function section(title: string, rows: string[][]): string {
  const heading = `${title} (${rows.length})`;
  // Optional trailing cells are dropped rather than shown as "-", which would be noise here.
  const trimmed = rows.map((row) => {
    const cells = [...row];
    while (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
    return cells;
  });
  return rows.length === 0 ? `${heading}\n${INDENT}(none)` : `${heading}\n${formatTable(null, trimmed, INDENT)}`;
}
