/**
 * The managed part of the output folder, listed: a full build re-renders
 * owners whose files are missing and deletes files no owner produces (left
 * by a crash, or by an older version).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { UNMANAGED_OUTPUT_FILES, UNMANAGED_OUTPUT_FOLDERS } from '../../serving/static-files.ts';

/**
 * Every file under `outputDir` by relative path, leaving out the top-level
 * folders of UNMANAGED_OUTPUT_FOLDERS and files of UNMANAGED_OUTPUT_FILES
 * (media, search, host files). A missing folder lists nothing.
 */
export function listManagedOutput(outputDir: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && (UNMANAGED_OUTPUT_FOLDERS.includes(entry.name) || UNMANAGED_OUTPUT_FILES.includes(entry.name))) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else found.add(rel);
    }
  };
  walk(outputDir, '');
  return found;
}
