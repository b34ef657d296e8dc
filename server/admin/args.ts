/**
 * Strict parsing of a command's arguments against its declared options, for
 * the admin CLI and every script (`scripts/lib/cli.ts#parseScriptArgs`). A
 * command that silently ignored a misspelt `--plan` would create keys on the
 * wrong plan, so unknown, repeated or value-less options are usage errors.
 * @module
 */

/** A mistake in the command line; the CLI prints it and exits with code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * How an option is written: `value` takes one argument (`--plan pro` or
 * `--plan=pro`); `toggle` is a boolean written `--write` or `--no-write`.
 */
export interface OptionSpec {
  readonly kind: 'value' | 'toggle';
  /** Shown in messages after the option, e.g. `NAME`. */
  readonly placeholder?: string;
  readonly required?: boolean;
  /** One line for the help text. */
  readonly description: string;
}

/** What a command accepts; also used to word the error messages. */
export interface CommandSyntax {
  /** The words that select the command, e.g. `key create`. */
  readonly name: string;
  /** One-line synopsis, e.g. `key create --account NAME [--plan PLAN]`. */
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Names of the required positional arguments, in order, e.g. `['PREFIX']`. */
  readonly positionals: readonly string[];
}

/** Arguments after parsing: toggles absent from `flags` were not given. */
export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly values: Readonly<Record<string, string>>;
  readonly flags: Readonly<Record<string, boolean>>;
}

/** The sentence that ends every usage error: where to read the full syntax. */
export function helpHint(name: string): string {
  return `Run "npm run admin -- ${name} --help" for details.`;
}

/**
 * Parses the arguments that follow the command's name. Shared by the admin
 * CLI and every script (`scripts/lib/cli.ts`), so all reject unknown,
 * repeated and value-less options the same way.
 * @throws UsageError naming the bad argument and showing the usage line.
 * @example parseCommandArgs(syntax, ['--account', 'ana', '--no-write'])
 */
export function parseCommandArgs(syntax: CommandSyntax, args: readonly string[], program?: string): ParsedArgs {
  // The admin CLI by default; the other scripts pass their own program, e.g. `npm run bench --`.
  const usage = program ? `${program} ${syntax.usage}` : `npm run admin -- ${syntax.usage}`;
  const hint = program ? `Run "${program} --help" for details.` : helpHint(syntax.name);
  const fail = (problem: string): never => {
    throw new UsageError(`${problem}\nUsage: ${usage}\n${hint}`);
  };
  const positionals: string[] = [];
  const values: Record<string, string> = {};
  const flags: Record<string, boolean> = {};
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsEnded = true;
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const inline = eq < 0 ? undefined : body.slice(eq + 1);
    const direct = arg.startsWith('--') ? syntax.options[name] : undefined;
    if (direct?.kind === 'value') {
      // A following `--x` is another option, not this one's value; `--label=--x` still works.
      const next = args[i + 1];
      const value = inline ?? (next !== undefined && !next.startsWith('--') ? (i++, next) : undefined);
      if (value === undefined || value.trim() === '') fail(`Option --${name} needs a value: --${name} ${direct.placeholder ?? 'VALUE'}.`);
      if (name in values) fail(`Option --${name} was given twice. Give it once.`);
      values[name] = value!;
      continue;
    }
    const toggle = arg.startsWith('--') ? toggleName(syntax, name) : undefined;
    if (toggle !== undefined) {
      if (inline !== undefined) fail(`Option --${name} takes no value. Write --${toggle} or --no-${toggle}.`);
      if (toggle in flags) fail(`Give only one of --${toggle} and --no-${toggle}.`);
      flags[toggle] = name === toggle;
      continue;
    }
    fail(`Unknown option ${eq < 0 ? arg : arg.slice(0, arg.indexOf('='))} for "${syntax.name}". ${describeOptions(syntax)}`);
  }
  if (positionals.length > syntax.positionals.length) {
    fail(`Unexpected argument "${positionals[syntax.positionals.length]}" for "${syntax.name}".`);
  }
  const missingPositional = syntax.positionals[positionals.length];
  if (missingPositional !== undefined) fail(`Missing ${missingPositional}.`);
  for (const [name, spec] of Object.entries(syntax.options)) {
    if (spec.required && !(name in values)) fail(`Missing --${name} ${spec.placeholder ?? 'VALUE'}.`);
  }
  return { positionals, values, flags };
}

function toggleName(syntax: CommandSyntax, written: string): string | undefined {
  const base = written.startsWith('no-') ? written.slice(3) : written;
  return syntax.options[base]?.kind === 'toggle' ? base : undefined;
}

function describeOptions(syntax: CommandSyntax): string {
  const names = Object.entries(syntax.options).map(([name, spec]) =>
    spec.kind === 'toggle' ? `--${name}/--no-${name}` : `--${name}`,
  );
  return names.length === 0 ? 'It takes no options.' : `Its options are: ${names.join(', ')}.`;
}
