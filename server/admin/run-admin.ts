/**
 * Runs one admin command line end to end and returns what to print and the
 * exit code, so `scripts/admin.ts` only touches the process and tests can
 * run whole command lines in memory.
 * @module
 */
import { ConfigError } from '../config.ts';
import { PressroomError } from '../domain/errors.ts';
import { isDatabaseBusy } from '../store/busy-error.ts';
import { UsageError } from './args.ts';
import type { AdminDeps } from './admin-common.ts';
import { resolveInvocation } from './dispatch.ts';
import { describeError } from '../describe-error.ts';

/** Exit codes: 0 done, 1 the operation failed, 2 the command line (or configuration) is wrong. */
export type AdminExitCode = 0 | 1 | 2;

/** The outcome of a command line. */
export interface AdminRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: AdminExitCode;
}

/** An opened database for the command, with notes about opening it (e.g. migrations applied). */
export interface OpenedAdmin {
  readonly deps: AdminDeps;
  readonly notes: readonly string[];
  close(): Promise<void>;
}

/**
 * Resolves and runs `argv`. `open` is called only once the command line is
 * known to be valid, so `--help` and typos never create a database file.
 */
export async function runAdmin(argv: readonly string[], open: () => Promise<OpenedAdmin>): Promise<AdminRun> {
  let opened: OpenedAdmin | undefined;
  try {
    const invocation = resolveInvocation(argv);
    if (invocation.kind === 'help') return { stdout: invocation.text, stderr: '', exitCode: 0 };
    opened = await open();
    const result = await invocation.command.run(opened.deps, invocation.args);
    const notes = opened.notes.length > 0 ? `${opened.notes.join('\n')}\n` : '';
    return { stdout: result.stdout, stderr: notes + result.stderr, exitCode: 0 };
  } catch (error) {
    return { stdout: '', ...describeFailure(error) };
  } finally {
    await opened?.close();
  }
}

/** The message and exit code for an error thrown while running a command. */
export function describeFailure(error: unknown): { stderr: string; exitCode: AdminExitCode } {
  if (error instanceof UsageError || error instanceof ConfigError) return { stderr: `${error.message}\n`, exitCode: 2 };
  if (PressroomError.is(error)) return { stderr: `Error: ${error.message}\n`, exitCode: 1 };
  if (isDatabaseBusy(error)) {
    return {
      stderr: 'Error: The database stayed busy with another process\'s write (the server or a build) for longer than the busy timeout; nothing was changed. Run the command again.\n',
      exitCode: 1,
    };
  }
  // Anything else is a bug or an environment problem (disk, permissions): keep the stack for the report.
  const detail = describeError(error, { stack: true });
  return { stderr: `Unexpected error: ${detail}\n`, exitCode: 1 };
}
