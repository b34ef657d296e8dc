/**
 * The admin commands: syntax, help and how parsed arguments reach the command
 * functions. Adding a command means adding an entry here.
 * @module
 */
import { PLAN_IDS } from '../domain/account/plans.ts';
import type { CommandSyntax, ParsedArgs } from './args.ts';
import { administratorCommand, changePlan, listAccounts, setAccountPassword } from './account-commands.ts';
import { parsePlan, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { inviteEditor, listChannels } from './channel-commands.ts';
import { createKey, listKeys, revokeKey } from './key-commands.ts';
import { summarize } from './summary-command.ts';
import { backupCommand } from './backup-command.ts';
import { edgeCommand } from './edge-command.ts';
import {
  decideModeration,
  homepageCommand,
  listJobsCommand,
  listModeration,
  retryJobCommand,
  reviewCommand,
} from './lifecycle-commands.ts';

/** One command: its syntax, its help, and its runner. */
export interface AdminCommand extends CommandSyntax {
  /** One line for `admin --help`. */
  readonly summary: string;
  /** Paragraphs after the option list in the command's `--help`. */
  readonly details: string;
  run(deps: AdminDeps, args: ParsedArgs): Promise<CommandOutput>;
}

const plans = PLAN_IDS.join(', ');

/** Every command, in the order `admin --help` lists them. */
export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  {
    name: 'key create',
    usage: 'key create --account NAME [--plan PLAN] [--label TEXT]',
    summary: 'Create an API key (and the account, if new); prints only the key.',
    options: {
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'Account that owns the key; created when missing.' },
      plan: { kind: 'value', placeholder: 'PLAN', description: `Plan (${plans}). New accounts default to free; an existing account is moved to it.` },
      label: { kind: 'value', placeholder: 'TEXT', description: 'A note shown in "key list", e.g. where the key is used.' },
    },
    positionals: [],
    details:
      'The key goes to stdout followed by a newline, and nothing else does, so\n' +
      '  KEY=$(npm run --silent admin -- key create --account ana)\n' +
      'captures it. Notes (account created, key prefix) go to stderr.\n' +
      'The key is shown once; only its hash is stored.',
    run: (deps, a) =>
      createKey(deps, { account: a.values.account!, plan: a.values.plan === undefined ? undefined : parsePlan(a.values.plan), label: a.values.label }),
  },
  {
    name: 'key revoke',
    usage: 'key revoke PREFIX',
    summary: 'Revoke a key by its prefix (first 12 characters) or the whole key.',
    options: {},
    positionals: ['PREFIX'],
    details: 'PREFIX is the first 12 characters of the key, as shown by "key list"\n(e.g. prk_AbCdEfGh). The whole key works too. Revoking takes effect at once.',
    run: (deps, a) => revokeKey(deps, a.positionals[0]!),
  },
  {
    name: 'key list',
    usage: 'key list',
    summary: 'List keys: prefix, account, label, created, last used, revoked.',
    options: {},
    positionals: [],
    details: 'Times are UTC. Keys themselves are never stored, so only prefixes are shown.',
    run: (deps) => listKeys(deps),
  },
  {
    name: 'account list',
    usage: 'account list',
    summary: 'List accounts with plan, channels owned and review flag.',
    options: {},
    positionals: [],
    details: 'A channel count past the plan\'s limit is shown as "5 (limit 3)": the newest\nchannels past the limit are read-only.',
    run: (deps) => listAccounts(deps),
  },
  {
    name: 'account plan',
    usage: 'account plan --account NAME --plan PLAN',
    summary: "Change an account's plan.",
    options: {
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'An existing account.' },
      plan: { kind: 'value', placeholder: 'PLAN', required: true, description: `The new plan: ${plans}.` },
    },
    positionals: [],
    details: "Channels follow their owner's plan: its features and channel limit apply at once.",
    run: (deps, a) => changePlan(deps, { account: a.values.account!, plan: parsePlan(a.values.plan!) }),
  },
  {
    name: 'account password',
    usage: 'account password --account NAME [--generate]',
    summary: 'Set the password an account signs in to the dashboard with.',
    options: {
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'An existing account.' },
      generate: { kind: 'toggle', description: 'Make a random password and print it (stdout, alone) instead of reading one.' },
    },
    positionals: [],
    details:
      'Without --generate the password is read from the terminal (not shown) or\n' +
      "from stdin: printf '%s\\n' \"$PASSWORD\" | npm run --silent admin -- account password --account ana\n" +
      'It is never taken from the command line. 12 to 1,000 characters. Setting it\n' +
      'ends every dashboard session of the account; API keys keep working.',
    run: (deps, a) => setAccountPassword(deps, { account: a.values.account!, generate: a.flags.generate ?? false }),
  },
  {
    name: 'account admin',
    usage: 'account admin --account NAME [--admin|--no-admin]',
    summary: 'Let an account decide moderation in the dashboard (or stop it).',
    options: {
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'An existing account.' },
      admin: { kind: 'toggle', description: 'On (default) or off.' },
    },
    positionals: [],
    details:
      'An administrator sees the moderation queue at /dashboard/moderation: what waits\n' +
      'for a person, with the reason, to approve or block with a note (as "moderation\n' +
      'approve" and "moderation block" do). The first run makes "local" one.',
    run: (deps, a) => administratorCommand(deps, { account: a.values.account!, on: a.flags.admin ?? true }),
  },
  {
    name: 'channel invite',
    usage: 'channel invite --channel SLUG --account NAME [--write|--no-write] [--manage|--no-manage]',
    summary: 'Invite an account to a channel as editor (or change its permissions).',
    options: {
      channel: { kind: 'value', placeholder: 'SLUG', required: true, description: 'The channel, by slug (see "channel list").' },
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'An existing account other than the owner.' },
      write: { kind: 'toggle', description: 'May write articles (default for a new editor: yes).' },
      manage: { kind: 'toggle', description: "May change the channel's settings (default for a new editor: no)." },
    },
    positionals: [],
    details: 'Inviting an existing editor again changes only the permissions given.',
    run: (deps, a) =>
      inviteEditor(deps, { channel: a.values.channel!, account: a.values.account!, write: a.flags.write, manage: a.flags.manage }),
  },
  {
    name: 'channel list',
    usage: 'channel list',
    summary: 'List channels with owner, status and editors.',
    options: {},
    positionals: [],
    details: 'STATUS says "read-only" when the owner has more channels than the plan allows.',
    run: (deps) => listChannels(deps),
  },
  {
    name: 'account review',
    usage: 'account review --account NAME [--review|--no-review]',
    summary: 'Flag an account so every publication waits for a person (or clear it).',
    options: {
      account: { kind: 'value', placeholder: 'NAME', required: true, description: 'An existing account.' },
      review: { kind: 'toggle', description: 'On (default) or off.' },
    },
    positionals: [],
    details: 'Submissions already in moderation keep their state; new ones follow the flag.',
    run: (deps, a) => reviewCommand(deps, { account: a.values.account!, on: a.flags.review ?? true }),
  },
  {
    name: 'moderation list',
    usage: 'moderation list',
    summary: 'List translations waiting for manual review.',
    options: {},
    positionals: [],
    details: 'Approve or block each with "moderation approve" or "moderation block".',
    run: (deps) => listModeration(deps),
  },
  ...(['approve', 'block'] as const).map(
    (verb): AdminCommand => ({
      name: `moderation ${verb}`,
      usage: `moderation ${verb} --channel SLUG --article SLUG --language CODE${verb === 'block' ? ' [--note TEXT]' : ''}`,
      summary: verb === 'approve' ? 'Approve a translation waiting for manual review.' : 'Block a translation waiting for manual review.',
      options: {
        channel: { kind: 'value', placeholder: 'SLUG', required: true, description: 'The channel.' },
        article: { kind: 'value', placeholder: 'SLUG', required: true, description: 'The article.' },
        language: { kind: 'value', placeholder: 'CODE', required: true, description: 'The translation, e.g. en.' },
        ...(verb === 'block' && { note: { kind: 'value' as const, placeholder: 'TEXT', description: 'Why, kept with the revision; the publishing API shows it as the reason ("manual: TEXT").' } }),
      },
      positionals: [],
      details:
        verb === 'approve'
          ? 'The translation is published (or scheduled, when its time is still ahead) at once; a secondary language whose primary is not public yet waits for it (moderation "waiting_for_primary" in the publishing API).'
          : 'The translation becomes moderation_blocked; a blocked revision of published content leaves the public version as it was, and the publishing API shows it refused in pending_revision.',
      run: (deps, a) =>
        decideModeration(deps, {
          channel: a.values.channel!,
          article: a.values.article!,
          language: a.values.language!,
          outcome: verb === 'approve' ? 'pass' : 'block',
          note: a.values.note,
        }),
    }),
  ),
  {
    name: 'jobs list',
    usage: 'jobs list [--state STATE] [--limit N]',
    summary: 'List background jobs, with attempts and errors.',
    options: {
      state: { kind: 'value', placeholder: 'STATE', description: 'Only jobs in this state: pending, running, done, parked.' },
      limit: { kind: 'value', placeholder: 'N', description: 'How many, newest first (default 50).' },
    },
    positionals: [],
    details: 'A job that failed on every attempt is parked with its last error; "jobs retry ID" queues it again.',
    run: (deps, a) => listJobsCommand(deps, { state: a.values.state, limit: a.values.limit }),
  },
  {
    name: 'jobs retry',
    usage: 'jobs retry ID',
    summary: 'Queue a parked job again.',
    options: {},
    positionals: ['ID'],
    details: 'A running server picks it up within a second; otherwise it runs at the next start.',
    run: (deps, a) => retryJobCommand(deps, a.positionals[0]!),
  },
  {
    name: 'edge',
    usage: 'edge',
    summary: 'Show whether the CDNs keep up: builds waiting for their purge, and the last failure.',
    options: {},
    positionals: [],
    details:
      'With PRESSROOM_PURGE_* set, a change counts as done only once every configured CDN\n' +
      'acknowledged its purge. Failed purges are retried with backoff and never dropped.',
    run: (deps) => edgeCommand(deps),
  },
  ...(['exclude', 'include'] as const).map(
    (verb): AdminCommand => ({
      name: `homepage ${verb}`,
      usage: `homepage ${verb} --channel SLUG [--article SLUG]`,
      summary: verb === 'exclude' ? 'Keep a channel or an article off the homepage, whatever its settings.' : 'Lift a homepage exclusion.',
      options: {
        channel: { kind: 'value', placeholder: 'SLUG', required: true, description: 'The channel.' },
        article: { kind: 'value', placeholder: 'SLUG', description: 'One article of it; without it the whole channel.' },
      },
      positionals: [],
      details: "An administrator's exclusion wins over homepage_enabled and homepage_mode=allow. It affects only the homepage.",
      run: (deps, a) => homepageCommand(deps, { channel: a.values.channel!, article: a.values.article, excluded: verb === 'exclude' }),
    }),
  ),
  {
    name: 'backup',
    usage: 'backup FILE',
    summary: 'Copy the database to FILE, safely beside a running server.',
    options: {},
    positionals: ['FILE'],
    details:
      "Uses SQLite's online backup API inside one read transaction: the copy holds\n" +
      'every change acknowledged before the command started, while the server goes\n' +
      'on writing. The copy is one file (not in WAL mode), passes\n' +
      '"PRAGMA integrity_check" before it gets its name, and never replaces an\n' +
      'existing FILE; a failed backup leaves nothing behind. Progress goes to stderr\n' +
      'for large databases. To restore: stop the server, then copy FILE over\n' +
      'data/pressroom.db and remove data/pressroom.db-wal and -shm.',
    run: (deps, a) => backupCommand(deps, a.positionals[0]!),
  },
  {
    name: 'list',
    usage: 'list',
    summary: 'Summary: accounts, key prefixes and channels.',
    options: {},
    positionals: [],
    details: 'Use "key list", "account list" and "channel list" for the details.',
    run: (deps) => summarize(deps),
  },
];
