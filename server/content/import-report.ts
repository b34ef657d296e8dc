/**
 * The outcome of a content/ import: counts for the start-up log and one
 * entry per problem, naming the file so an editor can fix it.
 * @module
 */
import type { Logger } from '../logger.ts';
import { PressroomError } from '../domain/errors.ts';
import { fieldProblems } from './front-matter.ts';
import { describeError } from '../describe-error.ts';

/** A file that could not be imported, and why. */
export interface ImportError {
  /** Path relative to the content folder, `/`-separated; a folder ends with `/`. */
  readonly file: string;
  readonly message: string;
}

/** What an import did. */
export interface ImportReport {
  readonly counts: {
    /** Channels created or updated. */
    channels: number;
    /** Articles created or updated. */
    articles: number;
    /** Channels and articles whose files had not changed, so were not written. */
    unchanged: number;
    /** Entries in `errors`. */
    errors: number;
  };
  readonly errors: ImportError[];
}

/** An empty report. */
export function emptyReport(): ImportReport {
  return { counts: { channels: 0, articles: 0, unchanged: 0, errors: 0 }, errors: [] };
}

/** Records a problem in the report and logs it as a warning: the import goes on. */
export function reportError(report: ImportReport, log: Logger, error: ImportError): void {
  report.errors.push(error);
  report.counts.errors = report.errors.length;
  log.warn('content file not imported', { file: error.file, problem: error.message });
}

/**
 * Explains an error thrown while writing, as one line. Field problems are
 * listed as `field: message`, because the field is what an editor must fix.
 */
export function explainImportError(error: unknown): string {
  if (PressroomError.is(error)) {
    return error.code === 'VALIDATION_FAILED' ? fieldProblems(error).join('; ') : error.message;
  }
  // Not an editor's mistake (a bug, a full disk): still reported per file so the rest imports.
  return `Unexpected error: ${describeError(error)}`;
}
