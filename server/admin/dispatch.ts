/**
 * Turns the admin command line into either a help text or a command to run,
 * without touching the database, so mistakes are reported before anything
 * is opened or migrated.
 * @module
 */
import { helpHint, parseCommandArgs, UsageError, type ParsedArgs } from './args.ts';
import { ADMIN_COMMANDS, type AdminCommand } from './registry.ts';
import { formatTable } from './table.ts';

/** What to do with a command line. */
export type Invocation = { readonly kind: 'help'; readonly text: string } | { readonly kind: 'run'; readonly command: AdminCommand; readonly args: ParsedArgs };

const TOP_HINT = 'Run "npm run admin -- --help" to see every command.';

/**
 * Resolves `argv` (without node and the script) to help or a parsed command.
 * `--help`/`-h` anywhere, or a leading `help`, asks for help.
 * @throws UsageError for an unknown or incomplete command or a bad option.
 */
export function resolveInvocation(argv: readonly string[]): Invocation {
  const wantsHelp = argv[0] === 'help' || argv.includes('--help') || argv.includes('-h');
  const rest = argv[0] === 'help' ? argv.slice(1) : argv;
  const words = leadingWords(rest);
  const command = ADMIN_COMMANDS.find((c) => c.name === words.slice(0, 2).join(' ')) ?? ADMIN_COMMANDS.find((c) => c.name === words[0]);
  if (command) {
    if (wantsHelp) return { kind: 'help', text: commandHelp(command) };
    return { kind: 'run', command, args: parseCommandArgs(command, rest.slice(command.name.split(' ').length)) };
  }
  const [first, second] = words;
  if (first === undefined) {
    if (wantsHelp) return { kind: 'help', text: overviewHelp() };
    if (rest.length === 0) throw new UsageError(`No command given.\n\n${overviewHelp()}`);
    throw new UsageError(`"${rest[0]}" is not a command; options come after the command, e.g. "key create --account ana".\n${TOP_HINT}`);
  }
  const group = ADMIN_COMMANDS.filter((c) => c.name.startsWith(`${first} `));
  if (group.length > 0) {
    if (wantsHelp && second === undefined) return { kind: 'help', text: groupHelp(first, group) };
    const names = group.map((c) => `"${c.name}"`).join(', ');
    const problem = second === undefined ? `"${first}" needs a subcommand` : `Unknown command "${first} ${second}"`;
    throw new UsageError(`${problem}. The ${first} commands are: ${names}.\n${TOP_HINT}`);
  }
  const guess = suggest(first);
  throw new UsageError(`Unknown command "${first}".${guess ? ` Did you mean "${guess}"?` : ''}\n${TOP_HINT}`);
}

/** The text of `admin --help`: every command with one line each. */
export function overviewHelp(): string {
  return [
    'Usage: npm run --silent admin -- <command> [options]',
    '',
    'Administers accounts, API keys and channels in the configured database',
    '(PRESSROOM_DATA_DIR, default ./data), applying pending migrations first.',
    '',
    'Commands:',
    formatTable(null, ADMIN_COMMANDS.map((c) => [c.name, c.summary]), '  '),
    '',
    'Run "npm run admin -- <command> --help" for its options.',
    'Exit codes: 0 done, 1 the operation failed, 2 the command line is wrong.',
    '',
  ].join('\n');
}

/** The text of `admin <command> --help`. */
export function commandHelp(command: AdminCommand): string {
  const options = Object.entries(command.options).map(([name, spec]) => [
    spec.kind === 'toggle' ? `--${name}, --no-${name}` : `--${name} ${spec.placeholder ?? 'VALUE'}`,
    spec.description,
  ]);
  return [
    `Usage: npm run admin -- ${command.usage}`,
    '',
    command.summary,
    ...(options.length > 0 ? ['', 'Options:', formatTable(null, options, '  ')] : []),
    '',
    command.details,
    '',
  ].join('\n');
}

function groupHelp(group: string, commands: readonly AdminCommand[]): string {
  return [
    `Usage: npm run admin -- ${group} <${commands.map((c) => c.name.split(' ')[1]).join('|')}> [options]`,
    '',
    formatTable(null, commands.map((c) => [c.name, c.summary]), '  '),
    '',
    helpHint(`${group} <command>`),
    '',
  ].join('\n');
}

// The words that name the command: the arguments before the first option, at most two.
function leadingWords(args: readonly string[]): string[] {
  const words: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  return words;
}

// The closest top-level word within two edits, to catch typos such as "keys" or "acount".
function suggest(word: string): string | undefined {
  const candidates = [...new Set(ADMIN_COMMANDS.map((c) => c.name.split(' ')[0]!))];
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
