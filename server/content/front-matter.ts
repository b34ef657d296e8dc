/**
 * Front matter of content/ files: reading it (YAML between `---` lines) and
 * the zod schemas it must pass. The schemas are assembled from the API's own
 * schemas, so a value the publishing API rejects is rejected here too, with
 * the same message. Every field is documented in docs/CONTENT.md.
 * @module
 */
import matter from 'gray-matter';
import YAML, { YAMLParseError } from 'yaml';
import { z } from 'zod';
import { articleWriteSchema, translationContentFields, writeStatusSchema } from '../domain/article/article.schema.ts';
import { channelCreateSchema } from '../domain/channel/channel.schema.ts';
import { PressroomError } from '../domain/errors.ts';
import { parseInput } from '../domain/validation.ts';

/** Root name used in field messages about front matter. */
const ROOT = 'front matter';

/**
 * `content/<channel>/channel.md`: the POST /channels body without `slug`,
 * which is the folder name. Piping into `channelCreateSchema` keeps every
 * rule of the API, including "include a translation in the default language".
 */
export const channelFrontMatterSchema = z
  .record(z.unknown(), { invalid_type_error: 'Expected YAML key: value pairs.' })
  .superRefine((data, ctx) => {
    if ('slug' in data) {
      ctx.addIssue({ code: 'custom', path: ['slug'], message: 'The slug of a channel is its folder name. Remove this field, or rename the folder' });
    }
  })
  .pipe(channelCreateSchema);
/** Validated channel front matter (`slug` is always undefined). */
export type ChannelFrontMatter = z.output<typeof channelFrontMatterSchema>;

// The article-level fields, picked from the API schema rather than redeclared.
const articleFields = articleWriteSchema.innerType().shape;

/** Article settings that only the primary-language file may set. */
export const ARTICLE_LEVEL_FIELDS = ['default_language', 'homepage_mode', 'scheduled_at', 'author'] as const;

/**
 * `content/<channel>/<article>/<lang>.md`: one translation. The language is
 * the file name and the body is the Markdown, so neither is a field here.
 * The article-level fields are accepted by the schema and then restricted to
 * the primary-language file by the importer (see `article-input.ts`), because
 * which file is primary is only known once every file has been read.
 */
export const articleFrontMatterSchema = z
  .object({
    ...translationContentFields,
    status: writeStatusSchema.optional(),
    default_language: articleFields.default_language.optional(),
    homepage_mode: articleFields.homepage_mode,
    scheduled_at: articleFields.scheduled_at,
    author: articleFields.author,
  })
  .strict();
/** Validated front matter of one translation file. */
export type ArticleFrontMatter = z.output<typeof articleFrontMatterSchema>;

/** A file split into its parsed (not yet validated) front matter and its body. */
export interface SplitFile {
  readonly data: unknown;
  readonly body: string;
}

/**
 * Splits a Markdown file into front matter and body.
 * YAML is read with the `yaml` package (YAML 1.2 core schema) instead of
 * gray-matter's default engine, so `2026-12-01T09:00:00Z` stays a string for
 * the date-time rule and `no` stays the Norwegian language code.
 * @throws Error with a one-line message when the YAML cannot be read.
 */
export function splitFrontMatter(text: string): SplitFile {
  let file: matter.GrayMatterFile<string>;
  try {
    file = matter(text, { engines: { yaml: (source: string) => YAML.parse(source) ?? {} } });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      // The first line carries the reason and the position; the rest is a snippet.
      const reason = (error.message.split('\n')[0] ?? error.message).replace(/:$/, '');
      throw new Error(`Front matter is not valid YAML: ${reason}.`);
    }
    throw error;
  }
  // Blank lines between the closing `---` and the text carry no meaning.
  return { data: file.data, body: file.content.replace(/^(?:[ \t]*\r?\n)+/, '') };
}

/**
 * Validates front matter against a schema.
 * @returns the data, or the problems as `field: message` strings.
 */
export function checkFrontMatter<S extends z.ZodTypeAny>(schema: S, data: unknown): { ok: true; value: z.output<S> } | { ok: false; problems: string[] } {
  try {
    return { ok: true, value: parseInput(schema, data, ROOT) };
  } catch (error) {
    if (PressroomError.is(error) && error.code === 'VALIDATION_FAILED') return { ok: false, problems: fieldProblems(error) };
    throw error;
  }
}

/**
 * The `field: message` lines of a VALIDATION_FAILED error. The shared
 * formatter points at "the API docs"; for files the reference is CONTENT.md.
 */
export function fieldProblems(error: PressroomError): string[] {
  const fields = (error.details?.fields ?? {}) as Record<string, string>;
  const lines = Object.entries(fields).map(([field, message]) => `${field}: ${message.replace('against the API docs', 'against docs/CONTENT.md')}`);
  return lines.length > 0 ? lines : [error.message];
}
