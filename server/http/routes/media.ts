/**
 * Publishing API: POST /channels/{channel}/media (and the legacy /projects/…
 * path). The upload is received by the app's one `UploadReceiver` (a slot
 * of the account's uploads, the body streamed to a temporary file under a
 * limit sized for one image and parsed off the request thread, the same for
 * the dashboard's upload forms); this route hands the parts to the media
 * service and maps the result.
 * @module
 */
import { Hono } from 'hono';
import { uploadMedia, type MediaDeps } from '../../domain/media/media.service.ts';
import { SCHEMA_VERSION } from '../../read-model/wire.ts';
import type { AuthEnv } from '../middleware/auth.ts';
import type { UploadReceiver } from '../upload-receiver.ts';

export { MEDIA_FIELD_SLACK_BYTES, UPLOADS_PER_ACCOUNT } from '../upload-receiver.ts';

/** True for the upload paths, which carry their own body limit instead of the JSON one. */
export function isMediaUploadPath(path: string): boolean {
  return /^\/api\/v1\/(?:channels|projects)\/[^/]+\/media\/?$/.test(path);
}

/** Routes under …/{channel}/media; the channel slug is the `channel` path parameter. */
export function mediaRoutes(deps: MediaDeps, uploads: UploadReceiver): Hono<AuthEnv> {
  return new Hono<AuthEnv>().post('/', async (c) => {
    const principal = c.get('principal');
    const view = await uploads.receive(c.req.raw, principal.accountId, (input) => uploadMedia(deps, principal, c.req.param('channel') ?? '', input));
    return c.json({ schema_version: SCHEMA_VERSION, ...view }, 201);
  });
}
