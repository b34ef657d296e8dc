/**
 * The text fields of a media upload (publishing-api.md, "Media upload
 * fields"). Multipart fields arrive as strings; an empty field counts as
 * omitted, as HTML forms send empty inputs.
 * @module
 */
import { z } from 'zod';
import { plainTextSchema, slugSchema } from '../schema-parts.ts';

/** What an upload is for. */
export const MEDIA_PURPOSES = ['article', 'channel_cover', 'channel_avatar'] as const;

/** Watermark choices of an article image. */
export const WATERMARK_MODES = ['auto', 'on', 'off'] as const;

/** Longest alt text accepted. */
export const ALT_MAX_LENGTH = 1000;

const blankAsMissing = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A focus coordinate: a number from 0 to 100, 50 (the centre) when omitted. */
const percent = z.preprocess(
  blankAsMissing,
  z
    .string()
    .trim()
    .refine(
      (value) => NUMBER.test(value) && Number(value) >= 0 && Number(value) <= 100,
      (value) => ({ message: `Must be a number from 0 to 100 (0 left or top, 50 centre, 100 right or bottom); got "${value.slice(0, 40)}"` }),
    )
    .transform(Number)
    .optional()
    .transform((value) => value ?? 50),
);

/** The text fields of POST …/media; unknown fields are refused like in JSON bodies. */
export const mediaFieldsSchema = z
  .object({
    purpose: z.preprocess(blankAsMissing, z.enum(MEDIA_PURPOSES).default('article')),
    position_x: percent,
    position_y: percent,
    watermark: z.preprocess(blankAsMissing, z.enum(WATERMARK_MODES).default('auto')),
    alt: plainTextSchema(ALT_MAX_LENGTH, { tooLong: `Too long: at most ${ALT_MAX_LENGTH} characters. Keep alt text to a sentence or two` })
      .transform((value) => value.replace(/\s+/g, ' ').trim())
      .default(''),
    page_slug: z.preprocess(blankAsMissing, slugSchema.optional()),
  })
  .strict();

/** Validated upload fields. */
export type MediaFields = z.output<typeof mediaFieldsSchema>;
