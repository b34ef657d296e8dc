/**
 * The one way an HTTP upload of an image is received, shared by the
 * publishing API's POST …/media and the dashboard's upload forms: a slot of
 * the account's uploads (one gate for both, so the dashboard is no way
 * around it), the Content-Type and declared-length checks, the body streamed
 * to a temporary file under a limit sized for one image and parsed off the
 * request thread (`multipart-upload.ts`), and the parts' files removed once
 * the upload is handled. What the parts become is the caller's (always
 * `uploadMedia`).
 * @module
 */
import { PressroomError } from '../domain/errors.ts';
import type { MediaLimits } from '../domain/media/media-kit.ts';
import type { UploadInput } from '../domain/media/upload-input.ts';
import { createFairGate, GateFullError } from '../fair-gate.ts';
import { bodyStream, receiveUpload, type UploadLimits } from './multipart-upload.ts';
import type { UploadParser } from './upload-parser.ts';

/** Room for the text fields and multipart framing on top of the largest image. */
export const MEDIA_FIELD_SLACK_BYTES = 64 * 1024;

/**
 * Uploads on their way at once per account (received, or being made into an image), and waiting: one key
 * cannot hold the others up (issue 40). Past them: 429 `TOO_MANY_UPLOADS`, before the body is read.
 */
export const UPLOADS_PER_ACCOUNT = { running: 2, queued: 2, slots: 32, retryAfterSeconds: 5 } as const;

/** Where uploads are received. */
export interface UploadReceiverOptions {
  /** Folder of the uploads' temporary files (`{dataDir}/uploads`). */
  readonly dir: string;
  /** Parses the bodies written there (off the request thread in the server). */
  readonly parser: UploadParser;
}

/** Receives uploads; one per app, so every upload path shares the accounts' slots. */
export interface UploadReceiver {
  /** The most a whole upload body may be (the image's limit and room for the fields). */
  readonly maxBodyBytes: number;
  /**
   * Receives `request`'s multipart body in one of the account's slots and hands its parts to `use`; the
   * parts' files are removed when `use` settles.
   * @throws PressroomError UNSUPPORTED_MEDIA_TYPE (not multipart), IMAGE_TOO_LARGE (413, declared or counted),
   * BAD_REQUEST (malformed), TOO_MANY_UPLOADS (429, with `details.retry_after_seconds`), and whatever `use` throws.
   */
  receive<T>(request: Request, accountId: number, use: (input: UploadInput) => Promise<T>): Promise<T>;
}

function tooLarge(maxImageBytes: number): PressroomError {
  const mb = Math.round((maxImageBytes / 1024 / 1024) * 10) / 10;
  return new PressroomError(
    'IMAGE_TOO_LARGE',
    `The upload is larger than a ${mb} MB image plus its fields, the most the service accepts. Send a smaller file: compress it or reduce its dimensions first.`,
  );
}

/** Creates the receiver of an app. */
export function createUploadReceiver(mediaLimits: MediaLimits, options: UploadReceiverOptions): UploadReceiver {
  const { maxImageBytes } = mediaLimits;
  const limits: UploadLimits = { maxBodyBytes: maxImageBytes + MEDIA_FIELD_SLACK_BYTES, maxParts: 32, maxFieldBytes: 16 * 1024 };
  const gate = createFairGate({ slots: UPLOADS_PER_ACCOUNT.slots, perKey: UPLOADS_PER_ACCOUNT.running, queuedPerKey: UPLOADS_PER_ACCOUNT.queued, retryAfterSeconds: UPLOADS_PER_ACCOUNT.retryAfterSeconds });
  return {
    maxBodyBytes: limits.maxBodyBytes,
    async receive(request, accountId, use) {
      const type = request.headers.get('content-type') ?? '';
      if (!/^multipart\/form-data\b/i.test(type)) {
        throw new PressroomError(
          'UNSUPPORTED_MEDIA_TYPE',
          `An upload must be multipart/form-data, but Content-Type is ${type ? `"${type}"` : 'missing'}. Send the image as a form with the file field "image".`,
        );
      }
      // A declared length over the limit is refused before anything is read.
      const declared = Number(request.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > limits.maxBodyBytes) throw tooLarge(maxImageBytes);
      try {
        return await gate.run(String(accountId), async () => {
          const upload = await receiveUpload(bodyStream(request.body), type, options.dir, limits, () => tooLarge(maxImageBytes), options.parser);
          try {
            return await use(upload.input);
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
    },
  };
}
