/**
 * A small XML well-formedness check for the renderer tests: no XML parser is
 * a dependency, and the feeds and sitemap must never ship a file a reader
 * rejects. Used only by `server/render/*.test.ts`.
 * @module
 */

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
const NAME = '[A-Za-z_][\\w.:-]*';
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>$`);

/** True when every `&` in `text` starts a known entity or character reference. */
function entitiesOk(text: string): boolean {
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    ENTITY.lastIndex = i;
    if (!ENTITY.test(text)) return false;
  }
  return true;
}

/**
 * Problems that make `xml` not well-formed: unbalanced or malformed tags,
 * bad attributes or entities, text outside the root. Empty when well-formed.
 * Not a full parser (no DTDs, no namespace checks); enough for our output.
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  const body = xml.replace(/^<\?xml[^?]*\?>/, '');
  for (const [token] of body.matchAll(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<[^>]*>|[^<]+|</g)) {
    if (token.startsWith('<![CDATA[') || token.startsWith('<!--') || token.startsWith('<?')) {
      if (stack.length === 0 && !token.startsWith('<?')) problems.push(`outside the root: ${token.slice(0, 40)}`);
      continue;
    }
    if (!token.startsWith('<')) {
      if (stack.length === 0 && token.trim() !== '') problems.push(`text outside the root: ${token.slice(0, 40)}`);
      if (!entitiesOk(token) || token.includes(']]>')) problems.push(`bad text: ${token.slice(0, 40)}`);
      continue;
    }
    const match = TAG.exec(token);
    if (!match || !entitiesOk(token)) {
      problems.push(`bad tag: ${token.slice(0, 60)}`);
      continue;
    }
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      if (stack.pop() !== name) problems.push(`unexpected </${name}>`);
    } else {
      if (stack.length === 0) roots += 1;
      if (!selfClosing) stack.push(name!);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
