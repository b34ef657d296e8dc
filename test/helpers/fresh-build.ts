/**
 * The checks the kill tests end with: each article published once, and the
 * output folder the servers left equal to a fresh full build of the same
 * data. The data is copied
 * (`pg_dump`, consistent while in use), the copy's manifest and shown
 * translations emptied, and `npm run build` (a process of its own) builds it
 * into an empty folder.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Db } from '../../server/store/database.ts';
import type { PostgresCluster } from './postgres-cluster.ts';
import { npmRun, type CommandResult } from './service-process.ts';

/**
 * Every file of an output folder with its bytes, by relative path. Left out:
 * the search shards (Pagefind's, built after the pages on their own schedule),
 * `media/` (uploads, not built) and temporary names.
 */
export function builtSiteFiles(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relative = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (relative !== 'pagefind' && relative !== 'media') walk(path.join(dir, entry.name), relative);
      } else if (!entry.name.includes('.tmp')) files.set(relative, fs.readFileSync(path.join(dir, entry.name)));
    }
  };
  walk(folder, '');
  return files;
}

/**
 * Builds a copy of the database at `url` into `{into}/dist` with `npm run
 * build` and the service's `env`; resolves with the command's outcome and
 * the folder.
 */
export async function freshFullBuild(cluster: PostgresCluster, url: string, env: NodeJS.ProcessEnv, into: string): Promise<{ build: CommandResult; dist: string }> {
  const copy = await cluster.copyDatabase(url);
  const db = openDatabase(copy);
  try {
    await db.deleteFrom('output_files').execute();
    await db.deleteFrom('built_translations').execute();
  } finally {
    await db.destroy();
  }
  const dist = path.join(into, 'dist');
  const build = await npmRun('build', [], { ...env, PRESSROOM_DATABASE_URL: copy, PRESSROOM_DATA_DIR: path.join(into, 'data'), PRESSROOM_OUTPUT_DIR: dist });
  return { build, dist };
}

/**
 * What "published exactly once" reads in the store: the number of articles
 * with a public change, whether each has exactly one, and whether each
 * translation has at most one passed revision.
 */
export async function publications(db: Db): Promise<{ articles: number; eachOnce: boolean; oneRevisionEach: boolean }> {
  const events = await db.selectFrom('publication_events').select('article_id').where('article_id', 'is not', null).execute();
  const perArticle = new Map<number, number>();
  for (const e of events) perArticle.set(e.article_id!, (perArticle.get(e.article_id!) ?? 0) + 1);
  const passed = await db.selectFrom('revisions').select('translation_id').where('moderation_state', '=', 'passed').execute();
  return { articles: perArticle.size, eachOnce: [...perArticle.values()].every((n) => n === 1), oneRevisionEach: new Set(passed.map((r) => r.translation_id)).size === passed.length };
}
