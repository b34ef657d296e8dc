/**
 * The corpus of a benchmark run in `dir`: copied from a kept one (`--corpus
 * DIR`: writing 100,000 articles takes some 20 minutes, so a manual run at
 * that size writes the corpus once and keeps it), or written anew by
 * `corpus.ts`. Shared by the build, edge and reads benchmarks.
 * @module
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { CORPUS_CHANNELS, CORPUS_FILE, type CorpusShape } from './corpus.ts';

/**
 * Puts the corpus of `shape` in `{dir}/data` (the uploaded images in `data/media`): a copy of `kept`
 * (`{kept}/data`, as `corpus.ts --data {kept}/data` writes it; a corpus kept before media moved into the data
 * folder has them in `{kept}/dist/media`, copied too, and the service adopts them) after checking that it
 * holds the corpus asked for, or, without `kept`, a new one. The copy is built and changed; the kept corpus is not.
 */
export function prepareCorpus(options: { dir: string; kept: string | null; shape: Omit<CorpusShape, 'channels'> & { channels?: number }; progress: (message: string) => void }): void {
  const { dir, kept, progress } = options;
  const shape = { channels: CORPUS_CHANNELS, ...options.shape };
  if (kept) {
    const shapeFile = path.join(kept, 'data', CORPUS_FILE);
    let held: CorpusShape;
    try {
      held = JSON.parse(fs.readFileSync(shapeFile, 'utf8')) as CorpusShape;
    } catch {
      throw new Error(`${shapeFile} cannot be read: --corpus takes a folder whose data/ was written by scripts/bench/corpus.ts --data DIR/data.`);
    }
    if (held.articles !== shape.articles || held.languages !== shape.languages || held.channels !== shape.channels) {
      throw new Error(`${kept} holds ${held.articles} articles × ${held.languages} languages in ${held.channels} channels; pass the same --articles, --languages and --channels.`);
    }
    progress(`copying the corpus of ${kept}…`);
    fs.cpSync(path.join(kept, 'data'), path.join(dir, 'data'), { recursive: true });
    const media = path.join(kept, 'dist', 'media');
    if (fs.existsSync(media)) fs.cpSync(media, path.join(dir, 'dist', 'media'), { recursive: true });
    return;
  }
  progress(`writing ${shape.articles} articles × ${shape.languages} languages…`);
  const generated = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/bench/corpus.ts'), '--data', path.join(dir, 'data'), '--articles', String(shape.articles), '--languages', String(shape.languages), '--channels', String(shape.channels)],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (generated.status !== 0) throw new Error('corpus generation failed');
}
