/**
 * The llms.txt proposal's reference parser, ported to TypeScript so the
 * validation suite reads our llms files exactly as the proposal's own tool
 * does: `parse_llms_file` of the Python package `llms_txt`
 * (github.com/AnswerDotAI/llms-txt, `llms_txt/core.py` at commit
 * 0536f0cda3a84f9b8c151abd260ea942db781e1f; the same regexes as
 * `llms_txt/miniparse.py`). The regular expressions are copied as they are;
 * Python's `re.split` with a group, `re.MULTILINE` and `re.DOTALL` map to
 * JavaScript's `split` with a group and the `m` and `s` flags.
 *
 * Like the original, it fails (throws) when a non-empty line of an H2
 * section is not a link item `- [title](url): description`, and a title may
 * not contain `]` at all (not even escaped), nor a URL `)`.
 * @module
 */

/** One link line of an H2 section. */
export interface LlmsLink {
  readonly title: string;
  readonly url: string;
  readonly desc: string | undefined;
}

/** What `parse_llms_file` returns. */
export interface LlmsFile {
  readonly title: string;
  readonly summary: string | undefined;
  readonly info: string;
  /** H2 title → its links, in file order (a repeated H2 keeps the last, as a Python dict does). */
  readonly sections: ReadonlyMap<string, readonly LlmsLink[]>;
}

// parse_link: fr'-\s*\[{title}\]\({url}\){desc_pat}' with title [^\]]+, url [^\)]+, desc_pat (?::\s*(?P<desc>.*))?
const LINK = /-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<desc>.*))?/;
// _parse_llms: re.split(fr'^##\s*(.*?$)', txt, flags=re.MULTILINE)
const H2 = /^##\s*(.*?$)/m;
// parse_llms_file: fr'^#\s*{title}\n+{summ_pat}\n+{info}' with re.MULTILINE|re.DOTALL
const HEAD = /^#\s*(?<title>.+?$)\n+(?:^>\s*(?<summary>.+?$)$)?\n+(?<info>.*)/ms;

/** `parse_link`: throws where Python's `re.search(...).groupdict()` would (no match). */
export function parseLink(line: string): LlmsLink {
  const m = LINK.exec(line);
  if (m === null) throw new Error(`not a link item: ${JSON.stringify(line)}`);
  return { title: m.groups!.title!, url: m.groups!.url!, desc: m.groups!.desc };
}

function parseLinks(links: string): LlmsLink[] {
  return links
    .trim()
    .split(/\n+/)
    .filter((l) => l.trim() !== '')
    .map(parseLink);
}

/** `parse_llms_file`: the file's title, summary, info and sections. Throws what the reference parser would. */
export function parseLlmsFile(txt: string): LlmsFile {
  // A split on a pattern with one group gives [start, h2, body, h2, body, …], as Python's does.
  const [start = '', ...rest] = txt.split(new RegExp(H2.source, 'gm'));
  const sections = new Map<string, readonly LlmsLink[]>();
  for (let i = 0; i + 1 < rest.length; i += 2) sections.set(rest[i]!, parseLinks(rest[i + 1]!));
  const head = HEAD.exec(start.trim());
  if (head === null) throw new Error('no "# title" line followed by the summary and info');
  return { title: head.groups!.title!, summary: head.groups!.summary, info: head.groups!.info!, sections };
}
