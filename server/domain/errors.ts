/**
 * The error catalogue: every error the service can return, with a permanent
 * code, its HTTP status and a default message.
 *
 * Codes are permanent: clients branch on them, so a code is never renamed or
 * reused. Messages say what happened, why, and what to do. The catalogue is
 * mirrored in the API docs (`docs/openapi/*.yaml`, schema `ErrorCode`); a test
 * fails when the two disagree.
 *
 * The domain throws {@link PressroomError}; `server/http/on-error.ts` is the
 * only place that turns it into an HTTP response.
 * @module
 */

/** One catalogue entry. */
export interface ErrorDefinition {
  /** HTTP status the error maps to. */
  readonly status: number;
  /** Default message, used when the thrower gives none. */
  readonly message: string;
}

/**
 * Every error code with its status and default message.
 * Add new codes at the end of their group; never rename one.
 */
export const ERROR_CATALOGUE = {
  // 400: the request could not be read at all
  MALFORMED_JSON: {
    status: 400,
    message: 'The request body is not valid JSON. Send a JSON object and check quotes, commas and brackets.',
  },
  BAD_REQUEST: {
    status: 400,
    message: 'The request could not be understood. Check the path and the parameters against the API docs.',
  },
  // 401
  AUTH_MISSING: {
    status: 401,
    message:
      'No API key was sent. Send it as "Authorization: Bearer <API_KEY>" or in the "X-API-Key" header.',
  },
  AUTH_INVALID: {
    status: 401,
    message:
      'The API key is not valid: it is unknown or was revoked. Create a new key in the dashboard (/dashboard/account) or with "npm run admin -- key create".',
  },
  // 403
  PLAN_NO_API_PUBLISHING: {
    status: 403,
    message: "The account's plan does not include API publishing. Change the plan to one that does.",
  },
  CHANNEL_ACCESS_DENIED: {
    status: 403,
    message: 'The API key owner cannot access this channel. Ask the channel owner for an invitation.',
  },
  CHANNEL_PERMISSION_DENIED: {
    status: 403,
    message: 'The API key owner may not do this on the channel. Ask the channel owner for the permission.',
  },
  CHANNEL_READ_ONLY: {
    status: 403,
    message:
      "The channel is read-only because its owner has more channels than the plan allows. Remove channels or upgrade the owner's plan.",
  },
  CHANNEL_LIMIT_REACHED: {
    status: 403,
    message: "The account already has as many channels as its plan allows. Upgrade the plan or reuse a channel.",
  },
  PLAN_NO_SCHEDULING: {
    status: 403,
    message:
      "Scheduled publishing is not part of the channel owner's plan. Publish now, or upgrade to a plan with scheduling.",
  },
  // 404
  NOT_FOUND: {
    status: 404,
    message: 'Nothing exists at this address. Check the path against the API docs.',
  },
  CHANNEL_NOT_FOUND: {
    status: 404,
    message: 'No channel with this slug exists. List channels with GET /api/v1/channels.',
  },
  ARTICLE_NOT_FOUND: {
    status: 404,
    message: 'No article with this slug or id exists in the channel. List articles with GET .../pages.',
  },
  TRANSLATION_NOT_FOUND: {
    status: 404,
    message: 'The article has no translation in this language. Request one of the languages the article lists, or add it with PUT …/translations/{language}.',
  },
  // 412
  TRANSLATION_CHANGED: {
    status: 412,
    message:
      'The translation changed since the version sent in If-Match: someone else saved it in between, and this save was not made. Read the article again, merge the changes, and send the save with the new version.',
  },
  // 413
  PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'The request body is larger than the service accepts. Send a smaller body.',
  },
  IMAGE_TOO_LARGE: {
    status: 413,
    message: 'The uploaded image file is larger than the service accepts (10 MB unless configured otherwise). Send a smaller file: compress it or reduce its dimensions first.',
  },
  // 415
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request body must be JSON. Send the header "Content-Type: application/json".',
  },
  // 422
  VALIDATION_FAILED: {
    status: 422,
    message: 'Some fields are not valid. See error.details.fields for what is wrong with each.',
  },
  IMAGE_TOO_MANY_PIXELS: {
    status: 422,
    message: 'The image has more pixels than the service decodes (24 megapixels, for example 6000 × 4000). Resize it to at most 24 megapixels and send it again.',
  },
  IMAGE_UNREADABLE: {
    status: 422,
    message: 'The uploaded file could not be read as an image: it is corrupt, cut off or not an image at all. Check the file and send a JPEG, PNG, WebP, GIF, AVIF or TIFF image.',
  },
  IMAGE_TOO_COMPLEX: {
    status: 422,
    message: 'The image is a progressive JPEG of more scans than the service decodes (100; an ordinary one has about 10): decoding it would take a decoder for seconds or minutes. Save it again as a baseline JPEG or as PNG and send it again.',
  },
  IMAGE_FORMAT_UNSUPPORTED: {
    status: 422,
    message: 'The image is in a format the service does not accept for upload (for example SVG or PDF). Send a JPEG, PNG, WebP, GIF, AVIF or TIFF image instead.',
  },
  CONTENT_REFUSED: {
    status: 422,
    message:
      "A text that goes public without moderation (a channel's title or description, an article's byline) breaks the site's moderation rules. Change the field named in error.details.fields; ask the site's administrator if you think the rule is wrong.",
  },
  // 429
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests from this address. Wait the number of seconds in the Retry-After header, then try again.',
  },
  TOO_MANY_UPLOADS: {
    status: 429,
    message: 'This account already has as many uploads on their way as it may have at once. Wait the number of seconds in the Retry-After header, then send this one again; send uploads one or two at a time.',
  },
  ACCOUNT_BUSY: {
    status: 429,
    message: 'This account already has as many article bodies waiting to be prepared as it may have at once. Wait the number of seconds in the Retry-After header, then send the request again; send writes one after another.',
  },
  // 500
  INTERNAL: {
    status: 500,
    message: 'The service failed unexpectedly. The error was logged; try again, and report it if it persists.',
  },
  // 503
  SEARCH_UNAVAILABLE: {
    status: 503,
    message: 'Search is not available yet: its index is being built for the first time. Wait the number of seconds in the Retry-After header, then try again.',
  },
  DATABASE_BUSY: {
    status: 503,
    message:
      'The database is busy with another process\'s write (for example a site build) and the change was not saved. Wait the number of seconds in the Retry-After header, then send the same request again.',
  },
  MEDIA_STORE_UNAVAILABLE: {
    status: 503,
    message:
      'The image could not be stored in the object store (the bucket that keeps every upload for the other servers), so it was not saved. Wait the number of seconds in the Retry-After header, then send the same upload again; if it keeps failing, the operator should check the bucket settings (PRESSROOM_DEPLOY_S3_*) and the server log.',
  },
  DATABASE_DETACHED: {
    status: 503,
    message:
      "The server found its database journal (pressroom.db-wal) deleted or replaced by another process, so it refuses every publishing request to lose nothing; this request was not saved. An operator must restart the server (its log says what happened); send the request again after that.",
  },
} as const satisfies Record<string, ErrorDefinition>;

/** A permanent error code. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Field path → human message, as sent under `error.details.fields`. */
export type FieldErrors = Record<string, string>;

/**
 * The one error type the domain throws. Carries a permanent code; the HTTP
 * status comes from the catalogue, never from the thrower.
 */
export class PressroomError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'PressroomError';
    this.code = code;
    this.details = details;
  }

  /** HTTP status from the catalogue. */
  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  /**
   * Type guard that recognises the error by its shape (its name and a
   * catalogue code, as Hono and Astro recognise theirs), not by
   * `instanceof`: an error made by another copy of this module (a worker
   * thread's bundle, a second install) is recognised too.
   */
  static is(value: unknown): value is PressroomError {
    if (typeof value !== 'object' || value === null) return false;
    const { name, code } = value as { name?: unknown; code?: unknown };
    return name === 'PressroomError' && typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code) && value instanceof Error;
  }
}

/**
 * A 422 with one message per bad field.
 * @example throw validationError({ 'translations.0.title': 'Required. Give the title as a string.' })
 */
export function validationError(fields: FieldErrors, message?: string): PressroomError {
  const names = Object.keys(fields);
  const summary =
    message ??
    `${names.length === 1 ? 'One field is' : `${names.length} fields are`} not valid: ${names.join(', ')}. See error.details.fields for what to fix.`;
  return new PressroomError('VALIDATION_FAILED', summary, { fields });
}
