/**
 * Channel input: the request bodies of POST and PATCH /channels, also the
 * front matter of `content/<channel>/channel.md`. The schemas are the types.
 * @module
 */
import { z } from 'zod';
import { languageSchema, plainTextSchema, slugSchema, titleSchema } from '../schema-parts.ts';

/** Channel statuses: `active` is public, `hidden` is not shown to readers. */
export const CHANNEL_STATUSES = ['active', 'hidden'] as const;
/** A channel status. */
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

/** Title and description of a channel in one language. */
export const channelTranslationSchema = z
  .object({
    language: languageSchema,
    title: titleSchema,
    description: plainTextSchema(2000).nullable().optional(),
  })
  .strict();

/**
 * A translation item of PATCH: merged field by field into the stored one, so
 * an omitted field keeps its value and `null` clears a description. `title`
 * may be left out for a language the channel has (the service refuses a new
 * language without one).
 */
export const channelTranslationUpdateSchema = z
  .object({
    language: languageSchema,
    title: titleSchema.optional(),
    description: plainTextSchema(2000).nullable().optional(),
  })
  .strict();

/** A list of translation items: 1 to 100, one per language. */
function translationList<T extends z.ZodTypeAny>(item: T) {
  return z
    .array(item)
    .min(1)
    .max(100)
    .superRefine((items: Array<{ language: string }>, ctx) => {
      const seen = new Set<string>();
      items.forEach((entry, index) => {
        if (seen.has(entry.language)) {
          ctx.addIssue({ code: 'custom', path: [index, 'language'], message: `Language "${entry.language}" appears twice. Send one item per language` });
        }
        seen.add(entry.language);
      });
    });
}

const translations = translationList(channelTranslationSchema);

const channelFields = {
  slug: slugSchema.optional(),
  default_language: languageSchema,
  status: z.enum(CHANNEL_STATUSES).optional(),
  homepage_enabled: z.boolean().optional(),
  watermark_enabled: z.boolean().optional(),
  translations,
};

/** POST /channels. */
export const channelCreateSchema = z
  .object(channelFields)
  .strict()
  .superRefine((body, ctx) => {
    if (!body.translations.some((t) => t.language === body.default_language)) {
      ctx.addIssue({
        code: 'custom',
        path: ['translations'],
        message: `Include a translation in the default language "${body.default_language}"`,
      });
    }
  });
/** A validated channel creation. */
export type ChannelCreateInput = z.output<typeof channelCreateSchema>;

/** PATCH /channels/{slug}: every field optional; omitted fields keep their value. */
export const channelUpdateSchema = z
  .object({
    ...channelFields,
    slug: z.never({ invalid_type_error: 'The slug of a channel cannot be changed.' }).optional(),
    default_language: languageSchema.optional(),
    translations: translationList(channelTranslationUpdateSchema).optional(),
    title: titleSchema.optional(),
    description: plainTextSchema(2000).nullable().optional(),
  })
  .strict();
/** A validated channel update. */
export type ChannelUpdateInput = z.output<typeof channelUpdateSchema>;
