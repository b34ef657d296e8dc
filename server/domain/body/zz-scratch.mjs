import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
const words = 'lorem ipsum dolor sit amet https://example.com/x `code` **bold** _em_ [link](./slug) مرحبا'.split(' ');
let md = '';
for (let i = 0; i < 1200; i++) { md += words[i % words.length] + ' '; if (i % 60 === 59) md += '\n\n## Heading ' + i + '\n\n- item\n- item two\n\n'; }
for (const [name, p] of [['plain', unified().use(remarkParse).freeze()], ['gfm', unified().use(remarkParse).use(remarkGfm).freeze()]]) {
  for (let i = 0; i < 200; i++) p.parse(md);
  let t = performance.now(); for (let i = 0; i < 50; i++) p.parse(md); console.log(name, (performance.now() - t) / 50);
}
let md2 = md.replace(/ (?=\S)/g, '\n');
console.log(md.length);
