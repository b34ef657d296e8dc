/**
 * The port through which media rules store files: the media folder, by name.
 * The adapter is `server/media/media-storage.ts` (the filesystem, atomic
 * writes, traversal-proof names).
 * @module
 */

/** Files under the media folder, by name relative to it (`chan/_drafts/abc.webp`). */
export interface MediaStorage {
  /** Absolute path of the media folder. */
  readonly root: string;
  /** Writes a file atomically; a file of that name already there is kept (names are content-hashed). */
  write(name: string, data: Uint8Array): Promise<void>;
  /** Copies a file atomically. False when the source is missing and the target does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  /** Whether a file exists. */
  exists(name: string): Promise<boolean>;
  /** Deletes a file; a missing file is not an error. */
  remove(name: string): Promise<void>;
  /**
   * Deletes files directly in `folder` (left-over temporaries included) last
   * modified before `beforeMs`, unless `keep(fileName)` says otherwise.
   * @returns how many were deleted; 0 when the folder does not exist.
   */
  sweep(folder: string, beforeMs: number, keep: (fileName: string) => Promise<boolean>): Promise<number>;
  /** Absolute path of a file, or null when the name is not a valid media name. */
  resolve(name: string): string | null;
  /**
   * Real path of an existing file, or null when the name is not valid, the file
   * is missing, or a symbolic link leads outside the media folder.
   */
  resolveExisting(name: string): Promise<string | null>;
}
