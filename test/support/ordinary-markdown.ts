/**
 * Ordinary Markdown of a given size, as articles are written: headings,
 * paragraphs of sentences with some emphasis, strong text, links and inline
 * code, short lists, fenced code and quotes. Deterministic (a fixed seed), so
 * two runs measure the same text. Used by the bodies benchmark's save rows
 * (issue 36: 100 KB, 1 MB and 20 MB bodies).
 * @module
 */

const WORDS = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'publishing', 'platform', 'reader', 'article', 'channel', 'static', 'search', 'answer'];

/** At most `chars` characters (whole blocks, so a little fewer) of ordinary Markdown. */
export function ordinaryMarkdown(chars: number): string {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const sentence = () => {
    const words: string[] = [];
    for (let i = 0, n = 8 + Math.floor(random() * 12); i < n; i++) {
      const w = word();
      const k = random();
      words.push(k < 0.02 ? `*${w}*` : k < 0.03 ? `**${w}**` : k < 0.036 ? `[${w}](https://example.com/${w})` : k < 0.042 ? `\`${w}\`` : w);
    }
    const text = words.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const blocks: string[] = [];
  let size = 0;
  let section = 0;
  for (;;) {
    const k = random();
    const block =
      k < 0.08
        ? `## Section ${++section}`
        : k < 0.15
          ? Array.from({ length: 4 }, () => `- ${sentence()}`).join('\n')
          : k < 0.18
            ? '```js\nconst answer = 42;\nfunction twice(a) {\n  return a * 2;\n}\n```'
            : k < 0.2
              ? `> ${sentence()} ${sentence()}`
              : Array.from({ length: 3 + Math.floor(random() * 3) }, sentence).join(' ');
    // Blocks are joined by a blank line, and the text ends with a newline.
    if (size + block.length + 2 > chars) break;
    blocks.push(block);
    size += block.length + 2;
  }
  return `${blocks.join('\n\n')}\n`;
}
