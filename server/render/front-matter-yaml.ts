/**
 * YAML for the front matter of the `.md` documents, written so that YAML 1.1
 * readers (PyYAML, most static-site generators) and YAML 1.2 readers (the
 * `yaml` package, js-yaml) read the same values (docs/OUTPUTS.md).
 *
 * Every string is double-quoted (an unquoted `no` is `false` in 1.1, an
 * unquoted date a timestamp, `0777` a number). The `yaml` package escapes
 * C0 controls, `"` and `\` in double-quoted scalars, but writes the rest of
 * the characters raw, and some of them read differently:
 * - U+0085 (NEL), U+2028 and U+2029 are line breaks in YAML 1.1, so a
 *   reader folds them into a space inside a quoted scalar; YAML 1.2 keeps
 *   them. Written as the escapes `\N`, `\L` and `\P`, valid in both.
 * - DEL, the C1 controls, U+FEFF, U+FFFE and U+FFFF are outside YAML's
 *   printable set: PyYAML refuses the whole document. Written as `\x…` /
 *   `\u…` escapes.
 * The characters can only occur inside our double-quoted scalars (keys are
 * ASCII names), so escaping them in the serialised text is exact.
 * @module
 */
import { stringify } from 'yaml';

/** Options for the `yaml` stringifier: quoted strings, plain keys, no line folding (stable bytes, one line per value). */
const YAML_OPTIONS = { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 } as const;

const NAMED: Readonly<Record<string, string>> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };
// What YAML 1.1 reads as a line break, and what neither version counts as printable (C0 is escaped by `yaml` already).
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

function escape(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase()}`;
}

/**
 * `value` (plain objects, arrays, strings, numbers, booleans, null) as a YAML
 * block that YAML 1.1 and 1.2 read alike (see module doc), ending in a newline.
 * @example frontMatterYaml({ title: 'a\u0085b' }) // 'title: "a\\Nb"\n'
 */
export function frontMatterYaml(value: unknown): string {
  return stringify(value, YAML_OPTIONS).replace(UNSAFE, escape);
}
