/**
 * Publishing API: POST /channels/{channel}/media (and the legacy /projects/…
 * path). Reads the multipart body with Hono's parser behind a body limit sized
 * for one image, hands the parts to the media service and maps the result.
 * @module
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PressroomError } from '../../domain/errors.ts';
import { uploadMedia, type MediaDeps } from '../../domain/media/media.service.ts';
import type { UploadedFile, UploadInput } from '../../domain/media/upload-input.ts';
import { SCHEMA_VERSION } from '../../read-model/wire.ts';
import type { AuthEnv } from '../middleware/auth.ts';
import { describeError } from '../../describe-error.ts';

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

/** Reads a multipart/form-data body into text fields and files. */
async function readMultipart(c: Context): Promise<UploadInput> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new PressroomError(
      'UNSUPPORTED_MEDIA_TYPE',
      `An upload must be multipart/form-data, but Content-Type is ${type ? `"${type}"` : 'missing'}. Send the image as a form with the file field "image".`,
    );
  }
  let body: Record<string, string | File | Array<string | File>>;
  try {
    body = await c.req.parseBody({ all: true });
  } catch (error) {
    if (PressroomError.is(error)) throw error;
    throw new PressroomError(
      'BAD_REQUEST',
      `The multipart body could not be read (${describeError(error)}). Check the boundary in Content-Type and the part headers, or let your HTTP client build the form.`,
    );
  }
  const fields: Record<string, string[]> = {};
  const files: Record<string, UploadedFile[]> = {};
  for (const [name, value] of Object.entries(body)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (typeof part === 'string') (fields[name] ??= []).push(part);
      else (files[name] ??= []).push({ size: part.size, bytes: async () => new Uint8Array(await part.arrayBuffer()) });
    }
  }
  return { fields, files };
}

/** Routes under …/{channel}/media; the channel slug is the `channel` path parameter. */
export function mediaRoutes(deps: MediaDeps): Hono<AuthEnv> {
  const { maxImageBytes } = deps.media.limits;
  return new Hono<AuthEnv>().post(
    '/',
    bodyLimit({
      maxSize: maxImageBytes + MEDIA_FIELD_SLACK_BYTES,
      onError: () => {
        throw tooLarge(maxImageBytes);
      },
    }),
    async (c) => {
      const input = await readMultipart(c);
      const view = await uploadMedia(deps, c.get('principal'), c.req.param('channel') ?? '', input);
      return c.json({ schema_version: SCHEMA_VERSION, ...view }, 201);
    },
  );
}
