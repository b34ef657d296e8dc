import { describe, expect, it } from 'vitest';
import { UsageError } from './args.ts';
import { resolveInvocation } from './dispatch.ts';
import { ADMIN_COMMANDS } from './registry.ts';

function usageMessage(argv: string[]): string {
  try {
    resolveInvocation(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('resolveInvocation', () => {
  it('lists every command on one line each for --help, -h and help', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const result = resolveInvocation(argv);
      expect(result.kind).toBe('help');
      const text = result.kind === 'help' ? result.text : '';
      for (const command of ADMIN_COMMANDS) expect(text).toMatch(new RegExp(`^ {2}${command.name}\\s+${command.summary.slice(0, 10)}`, 'm'));
    }
  });

  it('gives each command its own help with its options', () => {
    for (const command of ADMIN_COMMANDS) {
      const result = resolveInvocation([...command.name.split(' '), '--help']);
      expect(result).toMatchObject({ kind: 'help', text: expect.stringContaining(`Usage: npm run admin -- ${command.usage}`) });
    }
    const invite = resolveInvocation(['help', 'channel', 'invite']);
    expect(invite.kind === 'help' && invite.text).toContain('--write, --no-write');
    const group = resolveInvocation(['key', '--help']);
    expect(group.kind === 'help' && group.text).toContain('key <create|revoke|list>');
  });

  it('resolves a command and parses what follows its name', () => {
    const result = resolveInvocation(['key', 'revoke', 'prk_AbCdEfGh']);
    expect(result.kind === 'run' && [result.command.name, result.args.positionals]).toEqual(['key revoke', ['prk_AbCdEfGh']]);
    const list = resolveInvocation(['list']);
    expect(list.kind === 'run' && list.command.name).toBe('list');
  });

  it('explains unknown and incomplete commands', () => {
    expect(usageMessage(['keys', 'create'])).toBe('Unknown command "keys". Did you mean "key"?\nRun "npm run admin -- --help" to see every command.');
    expect(usageMessage(['frobnicate'])).not.toContain('Did you mean');
    expect(usageMessage(['key'])).toContain('"key" needs a subcommand. The key commands are: "key create", "key revoke", "key list".');
    expect(usageMessage(['channel', 'delete'])).toContain('Unknown command "channel delete"');
    expect(usageMessage([])).toContain('No command given.');
    expect(usageMessage(['--account', 'ana'])).toContain('options come after the command');
  });

  it('reports bad options of a known command', () => {
    expect(usageMessage(['key', 'create'])).toContain('Missing --account NAME.');
    expect(usageMessage(['list', '--all'])).toContain('Unknown option --all for "list". It takes no options.');
  });
});
