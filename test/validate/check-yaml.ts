/**
 * The YAML part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): the front matter of every `.md` file of an output folder
 * is read by a YAML 1.1 reader (`yaml` with `version: '1.1'`) and two YAML
 * 1.2 readers (`yaml`, js-yaml); all readings must be equal. None of these
 * emulates PyYAML's reading of U+0085/U+2028/U+2029 as line breaks or its
 * refusal of non-printable characters, so the raw bytes are checked for
 * those too.
 *
 * Returns problems as text ("file: what"), empty when everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as jsyaml from 'js-yaml';
import { parse } from 'yaml';

// PyYAML's reader (yaml/reader.py NON_PRINTABLE), plus NEL, LS and PS, which YAML 1.1 reads as line breaks.
const NOT_SAFE_RAW = /[^\t\n\r\u0020-\u007e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;

/** Every `.md` file under `dir`, relative paths. */
export function markdownFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.md')).sort();
}

/** Checks the front matter of every `.md` file of `distDir` (see module doc). */
export async function checkYaml(distDir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of markdownFiles(distDir)) {
    const text = fs.readFileSync(path.join(distDir, file), 'utf8');
    const block = /^---\n([\s\S]*?\n)---\n/.exec(text);
    if (block === null) {
      problems.push(`${file}: no front matter block`);
      continue;
    }
    const yaml = block[1]!;
    const bad = NOT_SAFE_RAW.exec(yaml);
    if (bad) problems.push(`${file}: raw U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in the front matter (YAML 1.1 readers fold or refuse it)`);
    try {
      const readings = [parse(yaml, { version: '1.1' }), parse(yaml), jsyaml.load(yaml)];
      if (!readings.every((r) => isDeepStrictEqual(r, readings[0]))) problems.push(`${file}: YAML 1.1 and 1.2 readers disagree`);
      if (readings[0] === null || typeof readings[0] !== 'object') problems.push(`${file}: front matter is not a mapping`);
    } catch (error) {
      problems.push(`${file}: does not parse: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return problems;
}
