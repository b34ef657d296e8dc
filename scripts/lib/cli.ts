/**
 * Small helpers shared by the scripts' command lines.
 * @module
 */

/** True when the arguments ask for help. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/**
 * Splits arguments into positionals and `--name value` / `--flag` options.
 * @example parseArgs(['key', 'create', '--account', 'ana']) // { positionals: ['key','create'], options: { account: 'ana' } }
 */
export function parseArgs(args: readonly string[]): { positionals: string[]; options: Record<string, string | true> } {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const next = args[i + 1];
      if (inline !== undefined) options[name] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        options[name] = next;
        i++;
      } else options[name] = true;
    } else positionals.push(arg);
  }
  return { positionals, options };
}
