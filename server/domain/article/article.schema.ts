/**
 * Article input: the request bodies of the pages endpoints. The translation
 * fields and article settings are also the front matter of content/ files
 * (`server/content/`), so the API and Markdown files accept the same values.
 * @module
 */
import { z } from 'zod';
import { articleSlugSchema, dateTimeSchema, findControlCharacter, languageSchema, plainTextSchema, titleSchema } from '../schema-parts.ts';
import { ARTICLE_LIST_STATES, HOMEPAGE_MODES, REQUESTABLE_STATUSES } from './article-status.ts';
import { BODY_LIMITS } from '../body/limits.ts';
import { RESERVED_ARTICLE_SLUGS } from '../../serving/static-files.ts';

/** Longest excerpt (publishing spec, limits). */
export const EXCERPT_MAX_LENGTH = 320;

function statusSchema<T extends readonly [string, ...string[]]>(allowed: T) {
  return z.string().superRefine((value, ctx) => {
    if ((allowed as readonly string[]).includes(value)) return;
    ctx.addIssue({
      code: 'custom',
      message:
        value === 'moderation_review'
          ? 'moderation_review cannot be requested: the service moves published content into moderation itself. Send "published"'
          : `"${value}" is not allowed. Use one of: ${allowed.join(', ')}`,
    });
  }) as unknown as z.ZodType<T[number], z.ZodTypeDef, unknown>;
}

/** Statuses accepted on create and in translation items. */
export const writeStatusSchema = statusSchema(['draft', 'published', 'scheduled'] as const);
/** Statuses accepted by the status endpoint (adds `archived`). */
export const statusChangeStatusSchema = statusSchema(REQUESTABLE_STATUSES);

/** Homepage visibility. */
export const homepageModeSchema = z.enum(HOMEPAGE_MODES);

/** The content fields of one translation, shared with content/ front matter. */
export const translationContentFields = {
  title: titleSchema,
  excerpt: plainTextSchema(EXCERPT_MAX_LENGTH).nullable().optional(),
  seo_title: plainTextSchema(300, { singleLine: true }).nullable().optional(),
  seo_description: plainTextSchema(500).nullable().optional(),
};

// The per-translation body sizes of `BODY_LIMITS` (docs/CONTENT.md, "Body
// limits"), refused here already so that an oversized body never reaches a
// worker thread; the request's 20 MB cap is for all translations together.
const bodySize = (field: 'content_markdown' | 'content_html', limit: 'markdownChars' | 'htmlChars') =>
  z
    .string()
    .max(
      BODY_LIMITS[limit],
      `Too long: at most ${BODY_LIMITS[limit].toLocaleString('en')} characters in one translation's ${field} (limit ${limit}). The request's 20 MB limit is for the whole ` +
        'article, all translations together. Split the article, or move long appendices to their own article.',
    );

const bodyFields = {
  content_markdown: bodySize('content_markdown', 'markdownChars').optional(),
  content_html: bodySize('content_html', 'htmlChars').optional(),
};

function exactlyOneBody(item: { content_markdown?: string; content_html?: string }, ctx: z.RefinementCtx): void {
  const given = [item.content_markdown, item.content_html].filter((v) => v !== undefined).length;
  if (given === 0) {
    ctx.addIssue({ code: 'custom', path: ['content_markdown'], message: 'Required: send the body as content_markdown or content_html' });
  } else if (given === 2) {
    ctx.addIssue({ code: 'custom', path: ['content_html'], message: 'Send one body only: content_markdown or content_html, not both' });
  }
}

/** One translation inside an article create or update. */
export const translationItemSchema = z
  .object({
    language: languageSchema,
    ...translationContentFields,
    ...bodyFields,
    status: writeStatusSchema.optional(),
  })
  .strict()
  .superRefine(exactlyOneBody);

/** PUT …/translations/{language}: the language comes from the path. */
export const translationPutSchema = z
  .object({ ...translationContentFields, ...bodyFields, status: writeStatusSchema.optional() })
  .strict()
  .superRefine(exactlyOneBody);
/** A validated translation PUT. */
export type TranslationPutInput = z.output<typeof translationPutSchema>;

/** The author shown on public pages. */
export const authorSchema = z.object({ name: plainTextSchema(200, { singleLine: true, min: 1 }) }).strict();

/** POST …/pages: create, or update when the slug exists in the channel. */
export const articleWriteSchema = z
  .object({
    slug: articleSlugSchema.refine((slug) => !RESERVED_ARTICLE_SLUGS.has(slug), 'This slug is reserved for the channel page. Choose another slug'),
    default_language: languageSchema,
    status: writeStatusSchema.optional(),
    homepage_mode: homepageModeSchema.optional(),
    publish_translations: z.boolean().optional(),
    scheduled_at: dateTimeSchema.nullable().optional(),
    author: authorSchema.nullable().optional(),
    translations: z.array(translationItemSchema).min(1).max(100),
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.translations.forEach((t, index) => {
      if (seen.has(t.language)) {
        ctx.addIssue({ code: 'custom', path: ['translations', index, 'language'], message: `Language "${t.language}" appears twice. Send one item per language` });
      }
      seen.add(t.language);
    });
  });
/** A validated article write. */
export type ArticleWriteInput = z.output<typeof articleWriteSchema>;

/** PATCH …/status. */
export const statusChangeSchema = z
  .object({
    status: statusChangeStatusSchema,
    publish_translations: z.boolean().optional(),
    scheduled_at: dateTimeSchema.nullable().optional(),
    homepage_mode: homepageModeSchema.optional(),
  })
  .strict();
/** A validated status change. */
export type StatusChangeInput = z.output<typeof statusChangeSchema>;

/** PATCH …/settings: homepage visibility only. */
export const settingsChangeSchema = z.object({ homepage_mode: homepageModeSchema }).strict();
/** A validated settings change. */
export type SettingsChangeInput = z.output<typeof settingsChangeSchema>;

/** Query of GET …/pages. */
export const articleListQuerySchema = z
  .object({
    status: z.enum(['draft', 'moderation_review', 'scheduled', 'published', 'archived']).optional(),
    limit: z.coerce.number({ invalid_type_error: 'Expected an integer from 1 to 100.' }).int('Expected an integer from 1 to 100.').min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
    state: z.enum(ARTICLE_LIST_STATES).optional(),
    q: z
      .string()
      .trim()
      .max(200, 'At most 200 characters. Search for a shorter part of the title or slug.')
      // No title holds one (titles refuse them), and Postgres cannot compare text holding U+0000.
      .refine((v) => findControlCharacter(v) === null, 'Contains an invisible control character, which no title or slug holds. Remove it from the search.')
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  })
  .strict();
/** A validated list query. */
export type ArticleListQuery = z.output<typeof articleListQuerySchema>;
