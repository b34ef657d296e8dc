/**
 * Publishing API: POST /channels/{channel}/media (and the legacy /projects/…
 * path). Takes a slot of the account's uploads, streams the body to a
 * temporary file under a limit sized for one image and has it parsed off
 * the request thread (`multipart-upload.ts`), hands the parts to the media
 * service and maps the result.
 * @module
 */
import { Hono } from 'hono';
import { PressroomError } from '../../domain/errors.ts';
import { uploadMedia, type MediaDeps } from '../../domain/media/media.service.ts';
import { createFairGate, GateFullError } from '../../fair-gate.ts';
import { SCHEMA_VERSION } from '../../read-model/wire.ts';
import type { AuthEnv } from '../middleware/auth.ts';
import { bodyStream, receiveUpload } from '../multipart-upload.ts';
import type { UploadParser } from '../upload-parser.ts';

/** Room for the text fields and multipart framing on top of the largest image. */
export const MEDIA_FIELD_SLACK_BYTES = 64 * 1024;

/** True for the upload paths, which carry their own body limit instead of the JSON one. */
export function isMediaUploadPath(path: string): boolean {
  return /^\/api\/v1\/(?:channels|projects)\/[^/]+\/media\/?$/.test(path);
}

function tooLarge(maxImageBytes: number): PressroomError {
  const mb = Math.round((maxImageBytes / 1024 / 1024) * 10) / 10;
  return new PressroomError(
    'IMAGE_TOO_LARGE',
    `The upload is larger than a ${mb} MB image plus its fields, the most the service accepts. Send a smaller file: compress it or reduce its dimensions first.`,
  );
}

/**
 * Uploads on their way at once per account (received, or being made into an image), and waiting: one key
 * cannot hold the others up (issue 40). Past them: 429 `TOO_MANY_UPLOADS`, before the body is read.
 */
export const UPLOADS_PER_ACCOUNT = { running: 2, queued: 2, slots: 32, retryAfterSeconds: 5 } as const;

/** Where uploads are received and how many may be. */
export interface UploadRouteOptions {
  /** Folder of the uploads' temporary files (`{dataDir}/uploads`). */
  readonly dir: string;
  /** Parses the bodies written there (off the request thread in the server). */
  readonly parser: UploadParser;
}

/** Routes under …/{channel}/media; the channel slug is the `channel` path parameter. */
export function mediaRoutes(deps: MediaDeps, options: UploadRouteOptions): Hono<AuthEnv> {
  const { maxImageBytes } = deps.media.limits;
  const limits = { maxBodyBytes: maxImageBytes + MEDIA_FIELD_SLACK_BYTES, maxParts: 32, maxFieldBytes: 16 * 1024 };
  const gate = createFairGate({ slots: UPLOADS_PER_ACCOUNT.slots, perKey: UPLOADS_PER_ACCOUNT.running, queuedPerKey: UPLOADS_PER_ACCOUNT.queued, retryAfterSeconds: UPLOADS_PER_ACCOUNT.retryAfterSeconds });
  return new Hono<AuthEnv>().post('/', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw new PressroomError(
        'UNSUPPORTED_MEDIA_TYPE',
        `An upload must be multipart/form-data, but Content-Type is ${type ? `"${type}"` : 'missing'}. Send the image as a form with the file field "image".`,
      );
    }
    // A declared length over the limit is refused before anything is read.
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxBodyBytes) throw tooLarge(maxImageBytes);
    const principal = c.get('principal');
    try {
      return await gate.run(String(principal.accountId), async () => {
        const upload = await receiveUpload(bodyStream(c.req.raw.body), type, options.dir, limits, () => tooLarge(maxImageBytes), options.parser);
        try {
          const view = await uploadMedia(deps, principal, c.req.param('channel') ?? '', upload.input);
          return c.json({ schema_version: SCHEMA_VERSION, ...view }, 201);
        } finally {
          await upload.discard();
        }
      });
    } catch (error) {
      if (!(error instanceof GateFullError)) throw error;
      throw new PressroomError(
        'TOO_MANY_UPLOADS',
        `This account already has ${UPLOADS_PER_ACCOUNT.running} uploads on their way and ${UPLOADS_PER_ACCOUNT.queued} waiting, the most it may have at once. Wait ${error.retryAfterSeconds} s (the Retry-After header) and send this one again; send uploads one or two at a time.`,
        { retry_after_seconds: error.retryAfterSeconds },
      );
    }
  });
}
