/**
 * The project's OpenAPI documents (`docs/openapi/*.yaml`) as compact JSON:
 * what the service answers at `/api/v1/openapi.json` and
 * `/api/public/v1/openapi.json`, and what every build writes into the
 * output, so both are the same bytes. Parsed again only when the file
 * changed: every build renders the site's small files, and parsing the YAML
 * was a large share of a publish's time (docs/PERFORMANCE-HISTORY.md,
 * issue 17's second session).
 * @module
 */
import fs from 'node:fs';
import YAML from 'yaml';

const parsed = new Map<string, { stamp: string; json: string }>();

/** The document in `file` as JSON text. @throws when the file cannot be read or is not YAML. */
export function openApiJson(file: string): string {
  const stat = fs.statSync(file);
  const stamp = `${stat.mtimeMs}:${stat.size}`;
  const cached = parsed.get(file);
  if (cached?.stamp === stamp) return cached.json;
  const json = JSON.stringify(YAML.parse(fs.readFileSync(file, 'utf8')));
  parsed.set(file, { stamp, json });
  return json;
}
