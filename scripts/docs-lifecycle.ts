/**
 * Rewrites the generated state table in docs/LIFECYCLE.md from
 * server/domain/article/state-table.ts (`npm run docs:lifecycle`), so the
 * document cannot drift from the rows the tests walk.
 * @module
 */
import fs from 'node:fs';
import { withStateTable } from '../server/domain/article/state-table.ts';
import { LIFECYCLE_DOC as file } from '../server/paths.ts';
if (process.argv.includes('--help')) {
  console.log('Usage: npm run docs:lifecycle\nRewrites the state table in docs/LIFECYCLE.md between its markers.');
} else {
  const before = fs.readFileSync(file, 'utf8');
  const after = withStateTable(before);
  if (after !== before) fs.writeFileSync(file, after);
  console.log(after === before ? 'docs/LIFECYCLE.md is up to date.' : 'docs/LIFECYCLE.md: state table rewritten.');
}
