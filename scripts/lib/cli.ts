/**
 * Small helpers shared by the scripts' command lines.
 * @module
 */
import { parseCommandArgs, UsageError, type CommandSyntax, type ParsedArgs } from '../../server/admin/args.ts';
import { ConfigError, loadConfig, type Config } from '../../server/config.ts';

/** True when the arguments ask for help. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/**
 * Parses a script's arguments strictly (unknown, repeated or value-less
 * options are errors), with the same parser as the admin CLI. On a mistake it
 * prints what was wrong and how to get help, and exits with code 2.
 * @param program how the script is run, e.g. `npm run bench --`.
 * @example const { values } = parseScriptArgs('npm run bench --', { name: 'bench', usage: '[--only NAME]', options: { only: { kind: 'value', description: '…' } }, positionals: [] }, argv);
 */
export function parseScriptArgs(program: string, syntax: Omit<CommandSyntax, 'name'>, args: readonly string[]): ParsedArgs {
  try {
    return parseCommandArgs({ name: program, ...syntax }, args, program);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/**
 * The configuration from the environment, for a script: a `ConfigError` is
 * printed on stderr (every invalid variable, with README's section) and
 * gives null, for the script to exit 2.
 */
export function loadScriptConfig(): Config | null {
  try {
    return loadConfig(process.env, process.cwd());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return null;
  }
}
