import { describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError, type CommandSyntax } from './args.ts';

const syntax: CommandSyntax = {
  name: 'demo run',
  usage: 'demo run TARGET --account NAME [--label TEXT] [--write|--no-write]',
  options: {
    account: { kind: 'value', placeholder: 'NAME', required: true, description: '' },
    label: { kind: 'value', placeholder: 'TEXT', description: '' },
    write: { kind: 'toggle', description: '' },
  },
  positionals: ['TARGET'],
};

function usageMessage(args: string[]): string {
  try {
    parseCommandArgs(syntax, args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandArgs', () => {
  it('reads values written both ways, keeping "=" inside values', () => {
    const parsed = parseCommandArgs(syntax, ['t', '--account', 'ana', '--label=a=b c']);
    expect(parsed).toEqual({ positionals: ['t'], values: { account: 'ana', label: 'a=b c' }, flags: {} });
  });

  it('reads toggles and their negation, leaving unset toggles absent', () => {
    expect(parseCommandArgs(syntax, ['t', '--account', 'a', '--no-write']).flags).toEqual({ write: false });
    expect(parseCommandArgs(syntax, ['--write', 't', '--account', 'a']).flags).toEqual({ write: true });
  });

  it('treats everything after "--" as positional', () => {
    expect(parseCommandArgs(syntax, ['--account', 'a', '--', '--odd']).positionals).toEqual(['--odd']);
  });

  it('names an unknown option and lists the valid ones, with the usage line', () => {
    const message = usageMessage(['t', '--acount', 'ana']);
    expect(message).toContain('Unknown option --acount for "demo run"');
    expect(message).toContain('--account, --label, --write/--no-write');
    expect(message).toContain('Usage: npm run admin -- demo run TARGET');
    expect(message).toContain('npm run admin -- demo run --help');
  });

  it('rejects a value option without a value, even when another option follows', () => {
    expect(usageMessage(['t', '--account'])).toContain('Option --account needs a value: --account NAME.');
    expect(usageMessage(['t', '--account', '--label', 'x'])).toContain('Option --account needs a value');
    expect(usageMessage(['t', '--account='])).toContain('needs a value');
  });

  it('rejects repeated options, contradictory toggles and toggles with values', () => {
    expect(usageMessage(['t', '--account', 'a', '--account', 'b'])).toContain('given twice');
    expect(usageMessage(['t', '--account', 'a', '--write', '--no-write'])).toContain('Give only one of --write and --no-write');
    expect(usageMessage(['t', '--account', 'a', '--write=yes'])).toContain('takes no value');
  });

  it('reports missing and unexpected arguments', () => {
    expect(usageMessage(['--account', 'a'])).toContain('Missing TARGET.');
    expect(usageMessage(['t'])).toContain('Missing --account NAME.');
    expect(usageMessage(['t', 'u', '--account', 'a'])).toContain('Unexpected argument "u"');
    expect(usageMessage(['t', '--account', 'a', '-x'])).toContain('Unknown option -x');
  });
});
