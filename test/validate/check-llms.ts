/**
 * The llms.txt part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): every `llms.txt`, `{channel}/llms.txt` and
 * `{channel}/llms-{n}.txt` of an output folder is read with the proposal's
 * reference parser (ported in `llms-txt-parser.ts`): it must parse, have a
 * title, a summary and at least one section, and every link must be
 * absolute and answer from the output folder (`site-links.ts`).
 *
 * Returns problems as text ("file: what"), empty when everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseLlmsFile } from './llms-txt-parser.ts';
import { siteFileFor } from './site-links.ts';

/** The llms files of `distDir`, relative paths. */
export function llmsFiles(distDir: string): string[] {
  const top = fs.existsSync(path.join(distDir, 'llms.txt')) ? ['llms.txt'] : [];
  const channels = fs
    .readdirSync(distDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => fs.readdirSync(path.join(distDir, d.name)).filter((f) => /^llms(?:-\d+)?\.txt$/.test(f)).map((f) => `${d.name}/${f}`));
  return [...top, ...channels.sort()];
}

/** Checks every llms file of `distDir` for the site at `baseUrl` (see module doc). */
export async function checkLlms(distDir: string, baseUrl: string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of llmsFiles(distDir)) {
    let parsed;
    try {
      parsed = parseLlmsFile(fs.readFileSync(path.join(distDir, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: the reference parser fails: ${(error as Error).message}`);
      continue;
    }
    if (!parsed.summary) problems.push(`${file}: no "> summary" line`);
    if (parsed.sections.size === 0) problems.push(`${file}: no H2 section`);
    for (const [section, links] of parsed.sections) {
      for (const link of links) {
        const target = siteFileFor(link.url, baseUrl, distDir);
        if ('problem' in target) problems.push(`${file}: section "${section}", link "${link.title}": ${target.problem}`);
      }
    }
  }
  if (!llmsFiles(distDir).includes('llms.txt')) problems.push('llms.txt: missing');
  return problems;
}
