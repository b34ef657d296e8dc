/**
 * Turns an article folder (`<article-slug>/<lang>.md` files) into the same
 * `ArticleWriteInput` the publishing API accepts, or into per-file problems.
 * Pure: no database, so the file rules are tested on their own.
 * @module
 */
import { articleWriteSchema, type ArticleWriteInput } from '../domain/article/article.schema.ts';
import { PressroomError } from '../domain/errors.ts';
import { canonicalLanguage, isLanguageCode, LANGUAGE_RULE } from '../domain/language.ts';
import { ARTICLE_SLUG_DIGITS_RULE, isArticleSlug, isSlug, SLUG_RULE } from '../domain/slug.ts';
import { parseInput } from '../domain/validation.ts';
import type { ArticleFolder, ContentFile } from './content-tree.ts';
import { ARTICLE_LEVEL_FIELDS, articleFrontMatterSchema, checkFrontMatter, fieldProblems, splitFrontMatter, type ArticleFrontMatter } from './front-matter.ts';
import { explainImportError, type ImportError } from './import-report.ts';
import { describeError } from '../describe-error.ts';

/** One translation file, read and validated. */
interface ParsedTranslation {
  readonly file: ContentFile;
  readonly language: string;
  readonly front: ArticleFrontMatter;
  readonly body: string;
}

/** A folder that reads as an article: the write input and where each translation came from. */
export interface ArticleBuild {
  readonly ok: true;
  readonly input: ArticleWriteInput;
  /** The file of each item of `input.translations`, by index. */
  readonly files: readonly string[];
  /** The primary-language file, which holds the article settings. */
  readonly primaryFile: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseFile(file: ContentFile): ParsedTranslation | ImportError {
  const language = file.name.slice(0, -'.md'.length);
  if (!isLanguageCode(language)) {
    return { file: file.rel, message: `The file name must be a language code followed by .md, such as en.md or pt-BR.md. ${LANGUAGE_RULE}` };
  }
  let text: string;
  try {
    text = utf8.decode(file.bytes);
  } catch {
    return { file: file.rel, message: 'The file is not UTF-8 text. Save it with UTF-8 encoding.' };
  }
  let split;
  try {
    split = splitFrontMatter(text);
  } catch (error) {
    return { file: file.rel, message: describeError(error) };
  }
  const checked = checkFrontMatter(articleFrontMatterSchema, split.data);
  if (!checked.ok) return { file: file.rel, message: `Invalid front matter: ${checked.problems.join('; ')}` };
  return { file, language: canonicalLanguage(language), front: checked.value, body: split.body };
}

/** Where the primary language came from, for the "missing file" message. */
function primaryLanguage(parsed: readonly ParsedTranslation[], channelDefault: string): { language: string; declaredIn: string | null } | ImportError[] {
  const declaring = parsed.filter((p) => p.front.default_language !== undefined);
  const values = new Set(declaring.map((p) => p.front.default_language));
  if (values.size > 1) {
    const said = declaring.map((p) => `${p.file.name} says "${p.front.default_language}"`).join(', ');
    return declaring.map((p) => ({ file: p.file.rel, message: `default_language differs between the files (${said}). Set it once, in the primary-language file.` }));
  }
  const first = declaring[0];
  return first ? { language: first.front.default_language!, declaredIn: first.file.name } : { language: channelDefault, declaredIn: null };
}

/**
 * Builds the write input of one article folder.
 * - the slug is the folder name; each `<lang>.md` is one translation;
 * - the primary language is `default_language` (set in the primary file) or
 *   else the channel's default language; its file must exist and is the only
 *   one that may hold article settings;
 * - the article status is the primary file's `status`, `draft` when omitted;
 *   other files follow it unless they set their own status;
 * - a schedule whose time has passed means "published": the file still says
 *   `scheduled` after the publication happened.
 * @param now ISO time, to tell a passed schedule from a future one.
 */
export function buildArticleInput(folder: ArticleFolder, channelDefault: string, now: string): ArticleBuild | { ok: false; errors: ImportError[] } {
  const fail = (errors: ImportError[]) => ({ ok: false as const, errors });
  if (!isArticleSlug(folder.name)) {
    const rule = isSlug(folder.name) ? ARTICLE_SLUG_DIGITS_RULE : SLUG_RULE;
    return fail([{ file: `${folder.rel}/`, message: `The folder name "${folder.name}" is not a valid article slug. ${rule} Rename the folder.` }]);
  }
  if (folder.files.length === 0) return fail([{ file: `${folder.rel}/`, message: 'The article folder has no translation files. Add one <lang>.md per language, such as en.md.' }]);

  const errors: ImportError[] = [];
  const parsed: ParsedTranslation[] = [];
  for (const file of folder.files) {
    const result = parseFile(file);
    if ('message' in result) errors.push(result);
    else if (parsed.some((p) => p.language === result.language)) {
      errors.push({ file: file.rel, message: `Another file of this article is also in "${result.language}". Keep one file per language.` });
    } else parsed.push(result);
  }
  if (errors.length > 0) return fail(errors);

  const primaryInfo = primaryLanguage(parsed, channelDefault);
  if (Array.isArray(primaryInfo)) return fail(primaryInfo);
  const { language: defaultLanguage, declaredIn } = primaryInfo;
  const primary = parsed.find((p) => p.language === defaultLanguage);
  if (!primary) {
    const why = declaredIn ? `default_language in ${declaredIn}` : 'the channel default language';
    return fail([{
      file: `${folder.rel}/${defaultLanguage}.md`,
      message: `Missing: the article's primary language is "${defaultLanguage}" (${why}), but the folder has no ${defaultLanguage}.md. Add it, or set default_language in the primary-language file.`,
    }]);
  }
  for (const p of parsed) {
    if (p === primary) continue;
    const misplaced = ARTICLE_LEVEL_FIELDS.filter((field) => p.front[field] !== undefined);
    if (misplaced.length > 0) {
      errors.push({ file: p.file.rel, message: `${misplaced.join(', ')}: article settings belong in the primary-language file (${primary.file.name}) only.` });
    }
  }
  if (errors.length > 0) return fail(errors);

  const front = primary.front;
  const scheduledAt = front.scheduled_at ?? null;
  // Only a publishing status is read as "already due"; a draft with a date stays an error, as in the API.
  const publishing = front.status === 'scheduled' || front.status === 'published';
  const due = publishing && scheduledAt !== null && scheduledAt <= now;
  const effective = <S extends string>(status: S): S | 'published' => (status === 'scheduled' && due ? 'published' : status);
  const ordered = [primary, ...parsed.filter((p) => p !== primary)];
  const raw = {
    slug: folder.name,
    default_language: defaultLanguage,
    status: effective(front.status ?? 'draft'),
    // The files describe the whole article: an omitted setting means its default, not "keep".
    homepage_mode: front.homepage_mode ?? 'inherit',
    ...(!due && scheduledAt !== null && { scheduled_at: scheduledAt }),
    author: front.author ?? null,
    publish_translations: true,
    translations: ordered.map((p) => ({
      language: p.language,
      title: p.front.title,
      excerpt: p.front.excerpt ?? null,
      seo_title: p.front.seo_title ?? null,
      seo_description: p.front.seo_description ?? null,
      content_markdown: p.body,
      // The primary's status is the article status above; sending both could only disagree.
      ...(p !== primary && p.front.status !== undefined && { status: effective(p.front.status) }),
    })),
  };
  const files = ordered.map((p) => p.file.rel);
  try {
    // The API schema has the last word (body size, duplicates), as for any write.
    return { ok: true, input: parseInput(articleWriteSchema, raw), files, primaryFile: primary.file.rel };
  } catch (error) {
    return fail(errorsByFile(error, { files, primaryFile: primary.file.rel }));
  }
}

/**
 * Maps an error from validating or writing an article to the files to fix:
 * `translations.<i>.<field>` belongs to that translation's file, every other
 * field (status, scheduled_at…) to the primary-language file.
 */
export function errorsByFile(error: unknown, build: Pick<ArticleBuild, 'files' | 'primaryFile'>): ImportError[] {
  if (!PressroomError.is(error) || error.code !== 'VALIDATION_FAILED') return [{ file: build.primaryFile, message: explainImportError(error) }];
  const byFile = new Map<string, string[]>();
  for (const line of fieldProblems(error)) {
    const match = /^translations\.(\d+)(?:\.|:)\s*(.*)$/s.exec(line);
    const file = (match && build.files[Number(match[1])]) ?? build.primaryFile;
    const text = match && build.files[Number(match[1])] ? match[2]! : line;
    byFile.set(file, [...(byFile.get(file) ?? []), text]);
  }
  return [...byFile].map(([file, problems]) => ({ file, message: problems.join('; ') }));
}
