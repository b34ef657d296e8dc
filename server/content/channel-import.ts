/**
 * Imports one `content/<channel-slug>/channel.md`: creates the channel for
 * the local account, or applies the file's settings when they differ from
 * the stored channel. Runs in its own transaction.
 * @module
 */
import type { Clock } from '../clock.ts';
import type { Principal } from '../domain/account/account.service.ts';
import { applyChannelUpdate, insertChannelFor } from '../domain/channel/channel.service.ts';
import { isSlug, SLUG_RULE } from '../domain/slug.ts';
import type { Logger } from '../logger.ts';
import * as channels from '../store/channel.repository.ts';
import type { ChannelRow, ChannelTranslationRow } from '../store/channel.table.ts';
import type { Db, Executor } from '../store/database.ts';
import { CHANNEL_FILE, type ChannelFolder } from './content-tree.ts';
import { channelFrontMatterSchema, checkFrontMatter, splitFrontMatter, type ChannelFrontMatter } from './front-matter.ts';
import { explainImportError, reportError, type ImportReport } from './import-report.ts';
import { describeError } from '../describe-error.ts';

/** What an import run shares between its steps. */
export interface ImportRun {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  /** The local account, acting as the owner of content channels. */
  readonly principal: Principal;
  readonly report: ImportReport;
}

/** A channel whose articles can be imported. */
export interface ImportedChannel {
  readonly slug: string;
  readonly defaultLanguage: string;
}

function readChannelFile(bytes: Buffer): { ok: true; value: ChannelFrontMatter } | { ok: false; message: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'The file is not UTF-8 text. Save it with UTF-8 encoding.' };
  }
  try {
    // The body is ignored: channel texts live in `translations`, one per language.
    const checked = checkFrontMatter(channelFrontMatterSchema, splitFrontMatter(text).data);
    return checked.ok ? checked : { ok: false, message: `Invalid front matter: ${checked.problems.join('; ')}` };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

/**
 * True when applying the file would change the stored channel. Only fields
 * the file sets are compared, matching `applyChannelUpdate`, which keeps
 * omitted fields (so a channel hidden through the API stays hidden unless
 * channel.md says `status: active`).
 */
export function channelDiffers(stored: ChannelRow, translations: readonly ChannelTranslationRow[], file: ChannelFrontMatter): boolean {
  const flag = (value: boolean | undefined, current: number) => value !== undefined && (value ? 1 : 0) !== current;
  if (file.default_language !== stored.default_language) return true;
  if (file.status !== undefined && file.status !== stored.status) return true;
  if (flag(file.homepage_enabled, stored.homepage_enabled) || flag(file.watermark_enabled, stored.watermark_enabled)) return true;
  return file.translations.some((t) => {
    const current = translations.find((row) => row.language === t.language);
    return !current || current.title !== t.title || current.description !== (t.description ?? null);
  });
}

async function owned(db: Executor, slug: string, accountId: number): Promise<ChannelRow | undefined> {
  const channel = await channels.findChannelBySlug(db, slug);
  return channel?.owner_account_id === accountId ? channel : undefined;
}

/**
 * Imports a channel folder's channel.md and counts the outcome.
 * @returns the channel to import the folder's articles into, or null when
 *   that is impossible (the problem is in the report).
 */
export async function importChannel(run: ImportRun, folder: ChannelFolder): Promise<ImportedChannel | null> {
  const file = `${folder.rel}/${CHANNEL_FILE}`;
  const fail = (message: string, where = file) => {
    reportError(run.report, run.log, { file: where, message });
    return null;
  };
  if (!isSlug(folder.name)) return fail(`The folder name "${folder.name}" is not a valid channel slug. ${SLUG_RULE}`, `${folder.rel}/`);
  const slug = folder.name;
  // A channel imported before keeps working when its file breaks: only its settings wait for a fix.
  const keepStored = async (message: string): Promise<ImportedChannel | null> => {
    const stored = await owned(run.db, slug, run.principal.accountId);
    fail(`${message} ${stored ? 'The channel keeps its stored settings; its articles are still imported.' : 'The channel and its articles were not imported.'}`);
    return stored ? { slug, defaultLanguage: stored.default_language } : null;
  };
  if (folder.channelFileRefused) return keepStored(folder.channelFileRefused.message);
  if (!folder.channelFile) return fail(`Missing: a channel folder needs a ${CHANNEL_FILE} with the channel's default_language and translations. Its articles were not imported.`);
  const parsed = readChannelFile(folder.channelFile.bytes);
  if (!parsed.ok) return keepStored(parsed.message);
  const front = parsed.value;

  let outcome: 'created' | 'updated' | 'unchanged' | 'foreign';
  try {
    outcome = await run.db.transaction().execute(async (trx) => {
      const existing = await channels.findChannelBySlug(trx, slug);
      if (!existing) {
        await insertChannelFor(trx, run.clock, run.principal, { ...front, slug });
        return 'created';
      }
      if (existing.owner_account_id !== run.principal.accountId) return 'foreign';
      if (!channelDiffers(existing, await channels.listChannelTranslations(trx, [existing.id]), front)) return 'unchanged';
      // The update schema has no slug (a slug never changes); the folder already names the channel.
      const { slug: _slug, ...update } = front;
      // The file is the whole truth: a description it no longer has is cleared (the API's PATCH would keep it).
      const translations = update.translations.map((t) => ({ ...t, description: t.description ?? null }));
      await applyChannelUpdate(trx, run.clock, existing, { ...update, translations });
      return 'updated';
    });
  } catch (error) {
    return keepStored(explainImportError(error));
  }
  if (outcome === 'foreign') {
    return fail(`A channel "${slug}" already exists and belongs to another account, so this folder cannot manage it. Rename the folder. Its articles were not imported.`);
  }
  if (outcome === 'unchanged') run.report.counts.unchanged++;
  else {
    run.report.counts.channels++;
    run.log.info(`channel ${outcome}`, { channel: slug, file });
  }
  return { slug, defaultLanguage: front.default_language };
}
