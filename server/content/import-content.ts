/**
 * Imports editors' Markdown from content/ (layout and fields: docs/CONTENT.md).
 *
 * Channels and articles go through the same service functions as the
 * publishing API, so the same rules apply; articles are written in `trusted`
 * mode (published without moderation) because content/ is reviewed in the
 * repository. Each channel and each article is its own transaction: a bad
 * file is reported and skipped, the rest of content/ still imports.
 * @module
 */
import type { Clock } from '../clock.ts';
import { isoNow } from '../clock.ts';
import { channelAccess, requireArticleWrite } from '../domain/account/access.ts';
import { toPlanId, type Principal } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import type { WriteWarning } from '../domain/article/article-view.ts';
import type { Logger } from '../logger.ts';
import { findAccountById } from '../store/account.repository.ts';
import * as articles from '../store/article.repository.ts';
import type { Db } from '../store/database.ts';
import { buildArticleInput, errorsByFile, type ArticleBuild } from './article-input.ts';
import { importChannel, type ImportedChannel, type ImportRun } from './channel-import.ts';
import { readContentTree, sourceHash, type ArticleFolder } from './content-tree.ts';
import { emptyReport, reportError, type ImportReport } from './import-report.ts';
import { invariant } from '../internal-error.ts';

export type { ImportError, ImportReport } from './import-report.ts';

/** What the importer needs. */
export interface ContentImportDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
}

/** Message when a folder would overwrite an article written through the API (precedence rule). */
export const API_OWNED_MESSAGE = 'article exists and is managed through the API; rename the folder or delete the API article';

type ArticleOutcome = { kind: 'api_owned' } | { kind: 'unchanged' } | { kind: 'created' | 'updated'; warnings: WriteWarning[] };

/** The file a `translations.<i>.…` warning field points into. */
function fileOfField(build: ArticleBuild, field: string | undefined): string {
  const index = /^translations\.(\d+)\./.exec(field ?? '')?.[1];
  return (index !== undefined && build.files[Number(index)]) || build.primaryFile;
}

async function importArticle(run: ImportRun, channel: ImportedChannel, folder: ArticleFolder): Promise<void> {
  if (folder.refused.length > 0) {
    // Applying the rest would drop the refused language from the stored article: nothing changes until it is fixed.
    for (const refused of folder.refused) reportError(run.report, run.log, { file: refused.file, message: `${refused.message} The article "${folder.rel}/" was not applied; its stored version stays.` });
    return;
  }
  const build = buildArticleInput(folder, channel.defaultLanguage, isoNow(run.clock));
  if (!build.ok) {
    for (const error of build.errors) reportError(run.report, run.log, error);
    return;
  }
  const hash = sourceHash(folder.files);
  let outcome: ArticleOutcome;
  try {
    outcome = await run.db.transaction().execute(async (trx): Promise<ArticleOutcome> => {
      const access = await channelAccess(trx, run.principal, channel.slug);
      const stored = await articles.findArticleBySlug(trx, access.channel.id, build.input.slug);
      // Precedence: files manage only articles that came from files; an API article is never overwritten.
      if (stored && stored.source !== 'content') return { kind: 'api_owned' };
      if (stored && stored.source_hash === hash) return { kind: 'unchanged' };
      requireArticleWrite(access);
      const result = await saveArticle(trx, { clock: run.clock }, access, build.input, { mode: 'trusted', source: { kind: 'content', hash } });
      return { kind: result.created ? 'created' : 'updated', warnings: result.warnings };
    });
  } catch (error) {
    for (const problem of errorsByFile(error, build)) reportError(run.report, run.log, problem);
    return;
  }
  switch (outcome.kind) {
    case 'api_owned':
      reportError(run.report, run.log, { file: build.primaryFile, message: `The ${API_OWNED_MESSAGE}. The files of "${folder.rel}/" were not applied.` });
      return;
    case 'unchanged':
      run.report.counts.unchanged++;
      return;
    default:
      run.report.counts.articles++;
      run.log.debug(`article ${outcome.kind}`, { article: folder.rel, hash });
      // Trusted files still get the normal body clean-up; what changed is worth a look, not a warning.
      for (const w of outcome.warnings) run.log.debug('body adjusted', { file: fileOfField(build, w.field), code: w.code, message: w.message });
  }
}

/**
 * Imports every channel and article under `dir` for the account `accountId`
 * (the local account, which owns the channels it creates).
 * @returns counts and the files that could not be imported; a missing `dir`
 *   gives zero counts and no error.
 * @throws only when `dir` cannot be listed at all or the account is missing.
 */
export async function importContent(deps: ContentImportDeps, dir: string, accountId: number): Promise<ImportReport> {
  const report = emptyReport();
  const tree = await readContentTree(dir);
  if (!tree) {
    deps.log.debug('no content folder, nothing to import', { dir });
    return report;
  }
  const account = await findAccountById(deps.db, accountId);
  invariant(account, `Cannot import content/: account ${accountId} does not exist.`);
  // The account acts as the owner of its channels; no API key is involved.
  const principal: Principal = { accountId, accountName: account.name, plan: toPlanId(account.plan), keyId: 0 };
  const run: ImportRun = { ...deps, principal, report };
  for (const refused of tree.refused) reportError(report, deps.log, refused);
  for (const folder of tree.channels) {
    for (const refused of folder.refused) reportError(report, deps.log, refused);
    const channel = await importChannel(run, folder);
    if (!channel) continue;
    for (const article of folder.articles) await importArticle(run, channel, article);
  }
  return report;
}
