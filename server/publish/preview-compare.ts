/**
 * The pure half of the dashboard's preview (`preview.ts`): the files a
 * publish would produce, compared with the bytes now in the output folder.
 * Each planned file is new (nothing there now), changed (other bytes) or
 * unchanged; a file its owner has now that the plan no longer produces is
 * deleted. A file whose plan names the same inputs as the plan of what is
 * live (`PlannedFile.inputs`, compared as the builder's render memo does) is
 * unchanged without being rendered.
 * @module
 */

/** What publishing does to one output file. */
export type FileChange = 'new' | 'changed' | 'deleted' | 'unchanged';

/** A file the preview's plan produces: its bytes, or null when its inputs are those of the live file (not rendered). */
export interface PlannedBytes {
  readonly path: string;
  /** The manifest owner (`article:{id}`, `channel:{id}`, `pages:{id}`, `site`). */
  readonly owner: string;
  readonly bytes: Uint8Array | null;
}

/** One output file and what publishing does to it. */
export interface OutputChange {
  readonly path: string;
  readonly owner: string;
  readonly change: FileChange;
  /** The bytes there now (null: none, or not read because the file is unchanged). */
  readonly before: Uint8Array | null;
  /** The bytes publishing writes (null: deleted, or unchanged and not rendered). */
  readonly after: Uint8Array | null;
}

/** The order files are listed in: what changes first, then by path. */
const ORDER: Readonly<Record<FileChange, number>> = { new: 0, changed: 1, deleted: 2, unchanged: 3 };

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether two plans of one file name the same inputs (each value identical, `Object.is`): then they render
 * the same bytes. A plan without inputs never counts as the same.
 */
export function sameInputs(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/**
 * Compares the planned files with the output folder (`live(path)`: the bytes there now, or null) and adds the
 * files of `gone` (produced now, not by the plan) as deleted. Listed new, changed, deleted, then unchanged,
 * each by path; a path planned twice counts once (the first plan).
 */
export function compareOutput(planned: readonly PlannedBytes[], live: (path: string) => Uint8Array | null, gone: ReadonlyArray<{ readonly path: string; readonly owner: string }> = []): OutputChange[] {
  const seen = new Set<string>();
  const changes: OutputChange[] = [];
  for (const file of planned) {
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    if (file.bytes === null) {
      changes.push({ path: file.path, owner: file.owner, change: 'unchanged', before: null, after: null });
      continue;
    }
    const before = live(file.path);
    const change: FileChange = before === null ? 'new' : sameBytes(before, file.bytes) ? 'unchanged' : 'changed';
    changes.push({ path: file.path, owner: file.owner, change, before, after: file.bytes });
  }
  for (const file of gone) {
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    const before = live(file.path);
    // Recorded but already missing from the folder: nothing to delete.
    if (before !== null) changes.push({ path: file.path, owner: file.owner, change: 'deleted', before, after: null });
  }
  return changes.sort((a, b) => ORDER[a.change] - ORDER[b.change] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The extensions of output files shown as text (a diff); the rest (cards, images) are named only. */
const TEXT_FILES = /\.(html|json|md|xml|txt|svg)$/;

/** Whether the file at `path` is text a diff can show. */
export function isTextFile(path: string): boolean {
  return TEXT_FILES.test(path);
}

/** How many files of each change the list holds. */
export function countChanges(changes: readonly OutputChange[]): Record<FileChange, number> {
  const counts: Record<FileChange, number> = { new: 0, changed: 0, deleted: 0, unchanged: 0 };
  for (const c of changes) counts[c.change]++;
  return counts;
}
