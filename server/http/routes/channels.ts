/**
 * Publishing API: /channels. Handlers parse, call the domain, map the result.
 * @module
 */
import { Hono } from 'hono';
import { createChannel, getChannel, listChannels, updateChannel, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { channelCreateSchema, channelUpdateSchema } from '../../domain/channel/channel.schema.ts';
import { SCHEMA_VERSION } from '../../read-model/wire.ts';
import type { AuthEnv } from '../middleware/auth.ts';
import { readJson } from '../read-json.ts';

/** Routes under /api/v1/channels (auth applied by the caller). */
export function channelRoutes(deps: ChannelDeps): Hono<AuthEnv> {
  return new Hono<AuthEnv>()
    .get('/', async (c) => {
      const channels = await listChannels(deps, c.get('principal'));
      return c.json({ schema_version: SCHEMA_VERSION, channels });
    })
    .post('/', async (c) => {
      const input = await readJson(c, channelCreateSchema);
      const channel = await createChannel(deps, c.get('principal'), input);
      c.header('Location', `/api/v1/channels/${channel.slug}`);
      return c.json({ schema_version: SCHEMA_VERSION, ...channel }, 201);
    })
    .get('/:channel', async (c) => {
      const channel = await getChannel(deps, c.get('principal'), c.req.param('channel'));
      return c.json({ schema_version: SCHEMA_VERSION, ...channel });
    })
    .patch('/:channel', async (c) => {
      const input = await readJson(c, channelUpdateSchema);
      const channel = await updateChannel(deps, c.get('principal'), c.req.param('channel'), input);
      return c.json({ schema_version: SCHEMA_VERSION, ...channel });
    });
}
