/**
 * The parts of a multipart upload, checked: exactly one `image` file, text
 * fields each sent once and valid. Transport-neutral: the HTTP route turns
 * its parser's output into {@link UploadInput}.
 * @module
 */
import { validationError, type FieldErrors } from '../errors.ts';
import { parseInput } from '../validation.ts';
import { mediaFieldsSchema, type MediaFields } from './media.schema.ts';

/** An uploaded file whose size is known before its bytes are read. */
export interface UploadedFile {
  readonly size: number;
  bytes(): Promise<Uint8Array>;
}

/** The parts of an upload by field name; a name sent twice has two entries. */
export interface UploadInput {
  readonly fields: Readonly<Record<string, readonly string[]>>;
  readonly files: Readonly<Record<string, readonly UploadedFile[]>>;
}

/** The name of the file field. */
export const IMAGE_FIELD = 'image';

/** What a caller asks of an upload beyond the API's rules. */
export interface UploadRules {
  /**
   * An article image must say what it shows: a blank `alt` is refused instead of marking the image decorative
   * (the dashboard's form asks for it; the publishing API keeps `alt` optional).
   */
  readonly altRequired?: boolean;
}

/** The message of a blank alt where one is required. */
export const ALT_REQUIRED_MESSAGE =
  'Required: say in a sentence what the image shows (for example "Fishing boats in the harbour at dawn"), so readers who cannot see it get it too.';

/**
 * Checks the parts and the text fields.
 * @throws PressroomError VALIDATION_FAILED naming every bad field (and a blank `alt` of an article image when `rules.altRequired`).
 */
export function readUploadInput(input: UploadInput, rules: UploadRules = {}): { fields: MediaFields; image: UploadedFile } {
  const problems: FieldErrors = {};
  const single: Record<string, string> = {};
  for (const [name, values] of Object.entries(input.fields)) {
    if (name === IMAGE_FIELD) problems[name] = 'Must be a file part. Send the image as a file (with a filename), not as text.';
    else if (values.length > 1) problems[name] = 'Sent more than once. Send each field once.';
    else if (values[0] !== undefined) single[name] = values[0];
  }
  for (const [name, files] of Object.entries(input.files)) {
    if (name !== IMAGE_FIELD) problems[name] = `Unknown file field. Send the image in the field "${IMAGE_FIELD}" and nothing else as a file.`;
    else if (files.length > 1) problems[name] = 'More than one file. Upload one image per request.';
  }
  const image = input.files[IMAGE_FIELD]?.[0];
  if (!image && !problems[IMAGE_FIELD]) problems[IMAGE_FIELD] = `Required. Send the image file in the multipart field "${IMAGE_FIELD}".`;
  let fields: MediaFields | undefined;
  try {
    fields = parseInput(mediaFieldsSchema, single);
  } catch (error) {
    const more = (error as { details?: { fields?: FieldErrors } }).details?.fields;
    if (!more) throw error;
    Object.assign(problems, more);
  }
  // Read from the field as sent, so it is named with the other problems even when they keep the fields from parsing.
  const purpose = (single.purpose ?? '').trim() || 'article';
  if (rules.altRequired && purpose === 'article' && (single.alt ?? '').trim() === '' && !problems.alt) problems.alt = ALT_REQUIRED_MESSAGE;
  if (Object.keys(problems).length > 0 || !fields || !image) throw validationError(problems);
  return { fields, image };
}
