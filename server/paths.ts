/**
 * Where the project's own files are, independent of the working directory:
 * the one place that works the project folder out from a module's address.
 * @module
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the project (where `package.json`, `src/` and `docs/` live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


/** The API documents served by the service and written into the output. */
export const OPENAPI_FILES = Object.freeze({
  publishing: path.join(PROJECT_ROOT, 'docs/openapi/publishing-api.yaml'),
  public: path.join(PROJECT_ROOT, 'docs/openapi/public-content-api.yaml'),
});

/** `docs/LIFECYCLE.md`, whose state table `npm run docs:lifecycle` rewrites. */
export const LIFECYCLE_DOC = path.join(PROJECT_ROOT, 'docs/LIFECYCLE.md');
