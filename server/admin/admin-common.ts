/**
 * What every admin command shares: its dependencies, the shape of its output,
 * and the checks several commands make.
 * @module
 */
import type { Clock } from '../clock.ts';
import { isPlanId, PLAN_IDS, type PlanId } from '../domain/account/plans.ts';
import { PressroomError } from '../domain/errors.ts';
import { findAccountByName } from '../store/account.repository.ts';
import type { AccountRow } from '../store/account.table.ts';
import type { Db, Executor } from '../store/database.ts';
import { UsageError } from './args.ts';

/** What the admin commands need; tests pass a temp database and a manual clock. */
export interface AdminDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** Lines about long work, shown as it goes (stderr); the command's output comes at the end. */
  readonly progress?: (line: string) => void;
  /**
   * Reads a secret the person types (not echoed) or pipes in, such as a password: never from the command line,
   * where the shell's history and the process list would keep it. Absent where nothing can be read.
   */
  readonly readSecret?: (prompt: string) => Promise<string>;
}

/**
 * What a command prints. `stdout` is the result (a key, a table) that scripts
 * may capture; `stderr` holds notes for the person at the terminal. Both end
 * with a newline unless empty.
 */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Builds a {@link CommandOutput} from lines, adding the final newlines. */
export function output(stdout: readonly string[], stderr: readonly string[] = []): CommandOutput {
  const join = (lines: readonly string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  return { stdout: join(stdout), stderr: join(stderr) };
}

/**
 * Validates a `--plan` value. A wrong plan is a mistake in the command line,
 * hence a usage error (exit 2) listing the choices.
 */
export function parsePlan(value: string): PlanId {
  if (!isPlanId(value)) {
    throw new UsageError(`Plan "${value}" does not exist. Choose one of: ${PLAN_IDS.join(', ')}.`);
  }
  return value;
}

/**
 * Loads an account the command needs to exist.
 * @throws PressroomError NOT_FOUND saying how to create or find it.
 */
export async function requireAccount(db: Executor, name: string): Promise<AccountRow> {
  const account = await findAccountByName(db, name);
  if (!account) {
    throw new PressroomError(
      'NOT_FOUND',
      `No account is named "${name}". See the accounts with "npm run admin -- account list", or create one with "npm run admin -- key create --account ${name}".`,
    );
  }
  return account;
}
