/**
 * Every file of an output folder that a deploy stores (relative paths):
 * what the bucket hosts of the URL table (R2, S3 behind CloudFront) are
 * filled with, as `npm run deploy` fills a bucket.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { TEMP_FILE_NAME, UNMANAGED_OUTPUT_FILES } from '../../server/serving/static-files.ts';

export function outputFiles(dir: string, prefix = '', into: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) outputFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`, into);
    else if (entry.isFile() && !TEMP_FILE_NAME.test(entry.name) && !UNMANAGED_OUTPUT_FILES.includes(`${prefix}${entry.name}`)) into.push(`${prefix}${entry.name}`);
  }
  return into;
}
