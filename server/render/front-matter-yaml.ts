/**
 * YAML for the front matter of the `.md` documents, written so that YAML 1.1
 * readers (PyYAML, most static-site generators) and YAML 1.2 readers (the
 * `yaml` package, js-yaml) read the same values (docs/OUTPUTS.md).
 *
 * Block style, two-space indents, one line per scalar. Every string is
 * double-quoted (an unquoted `no` is `false` in 1.1, an unquoted date a
 * timestamp, `0777` a number), with JSON's escapes, which both versions read
 * alike (`\"`, `\\`, `\n`, `\t`, `\uXXXX`, …); a line break inside a value is
 * always `\n`, so no value spans lines and no line can start with `---`.
 * JSON leaves some characters raw that read differently:
 * - U+0085 (NEL), U+2028 and U+2029 are line breaks in YAML 1.1, so a
 *   reader folds them into a space inside a quoted scalar; YAML 1.2 keeps
 *   them. Written as the escapes `\N`, `\L` and `\P`, valid in both.
 * - DEL, the C1 controls, U+FEFF, U+FFFE and U+FFFF are outside YAML's
 *   printable set: PyYAML refuses the whole document. Written as `\x…` /
 *   `\u…` escapes.
 *
 * Written here rather than with the `yaml` package's `stringify`, which
 * builds a document tree per call: the front matter of every `.md` file was
 * a visible share of a cold build's render time through it, and next to
 * nothing this way (docs/PERFORMANCE-HISTORY.md, issue 17's ninth session).
 * The shapes are the front matter's (plain objects with ASCII keys, arrays,
 * strings, finite numbers, booleans, null); the tests read every output back
 * with both versions of the `yaml` package and with js-yaml.
 * @module
 */

const NAMED: Readonly<Record<string, string>> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };
// What YAML 1.1 reads as a line break, and what neither version counts as printable (JSON escapes C0 already).
const UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;
const HAS_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
/** Keys written plain: nothing YAML could read as anything but this string. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function escape(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase()}`;
}

function quoted(text: string): string {
  const json = JSON.stringify(text);
  return HAS_UNSAFE.test(json) ? json.replace(UNSAFE, escape) : json;
}

type Plain = null | string | number | boolean | readonly Plain[] | { readonly [key: string]: Plain };

function isMap(value: unknown): value is { readonly [key: string]: Plain } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function scalar(value: unknown, where: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`Front matter value at ${where} is not a string, finite number, boolean, null, array or plain object.`);
}

/** `value` after `key:` or `-`: inline when a scalar or empty, else on the following lines at `indent`. */
function after(value: unknown, indent: string, where: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(' []\n');
    out.push('\n');
    sequence(value, indent, where, out);
  } else if (isMap(value)) {
    if (Object.keys(value).length === 0) return void out.push(' {}\n');
    out.push('\n');
    mapping(value, indent, indent, where, out);
  } else {
    out.push(' ', scalar(value, where), '\n');
  }
}

/** A mapping whose first line is already indented by `first` (the `- ` of a sequence item) and the rest by `indent`. */
function mapping(map: { readonly [key: string]: unknown }, first: string, indent: string, where: string, out: string[]): void {
  let lead = first;
  for (const key of Object.keys(map)) {
    if (!PLAIN_KEY.test(key)) throw new TypeError(`Front matter key ${JSON.stringify(key)} at ${where} is not a plain ASCII name.`);
    const value = map[key];
    if (value === undefined) continue;
    out.push(lead, key, ':');
    after(value, `${indent}  `, `${where}.${key}`, out);
    lead = indent;
  }
}

function sequence(items: readonly unknown[], indent: string, where: string, out: string[]): void {
  items.forEach((item, i) => {
    const at = `${where}[${i}]`;
    // A mapping item starts on the dash's line (`- key: …`); anything else follows the dash as a value would a key.
    if (isMap(item) && Object.keys(item).length > 0) mapping(item, `${indent}- `, `${indent}  `, at, out);
    else {
      out.push(indent, '-');
      after(item, `${indent}  `, at, out);
    }
  });
}

/**
 * `value` (a plain object of plain objects, arrays, strings, finite numbers,
 * booleans and null; `undefined` members are left out) as a YAML block that
 * YAML 1.1 and 1.2 read alike (see module doc), ending in a newline.
 * @throws TypeError for any other value, or a key that is not a plain ASCII name.
 * @example frontMatterYaml({ title: 'a\u0085b' }) // 'title: "a\\Nb"\n'
 */
export function frontMatterYaml(value: { readonly [key: string]: unknown }): string {
  if (!isMap(value)) throw new TypeError('Front matter must be a plain object.');
  const out: string[] = [];
  mapping(value, '', '', '$', out);
  return out.join('');
}
