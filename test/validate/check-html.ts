/**
 * The HTML part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): every page of an output folder through html-validate with
 * its `recommended` rules, and a check for the code points HTML forbids
 * (C0 controls other than whitespace, DEL, C1: the Nu Html Checker's
 * "forbidden code point", which html-validate does not look for).
 *
 * Returns problems as text ("file:line:column rule: message"), empty when
 * everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { HtmlValidate, type ConfigData } from 'html-validate';

/**
 * `html-validate:recommended` minus the rules that are opinions about
 * content rather than validity, each with why:
 */
export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ['html-validate:recommended'],
  rules: {
    // A page's <title> is the publisher's article title: its length is an editorial (SEO) choice, not an error.
    'long-title': 'off',
  },
};

const FORBIDDEN = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/** Every `.html` file of `distDir` outside the search index, relative paths. */
export function htmlFiles(distDir: string): string[] {
  return (fs.readdirSync(distDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.html') && !f.startsWith('pagefind')).sort();
}

/** Checks every page of `distDir` (see module doc). */
export async function checkHtml(distDir: string): Promise<string[]> {
  const validator = new HtmlValidate(HTML_VALIDATE_CONFIG);
  const problems: string[] = [];
  for (const file of htmlFiles(distDir)) {
    const text = fs.readFileSync(path.join(distDir, file), 'utf8');
    const bad = FORBIDDEN.exec(text);
    if (bad) problems.push(`${file}: forbidden code point U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at offset ${bad.index}`);
    const report = await validator.validateString(text, file);
    for (const result of report.results) for (const m of result.messages) problems.push(`${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
  }
  return problems;
}
