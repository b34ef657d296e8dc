/**
 * Publishing API: /channels/{channel}/pages (and the legacy /projects/… path).
 * Handlers parse, call the domain, map the result.
 * @module
 */
import { Hono } from 'hono';
import {
  changeSettings,
  changeStatus,
  getArticle,
  listArticles,
  putTranslation,
  settleWrite,
  upsertArticle,
  type ArticleDeps,
} from '../../domain/article/article.service.ts';
import {
  articleListQuerySchema,
  articleWriteSchema,
  settingsChangeSchema,
  statusChangeSchema,
  translationPutSchema,
} from '../../domain/article/article.schema.ts';
import { languageSchema } from '../../domain/schema-parts.ts';
import { parseInput } from '../../domain/validation.ts';
import { SCHEMA_VERSION } from '../../read-model/wire.ts';
import type { AuthEnv } from '../middleware/auth.ts';
import { readJson, readQuery } from '../read-json.ts';

/** Routes under …/{channel}/pages; the channel slug is the `channel` path parameter. */
export function pageRoutes(deps: ArticleDeps): Hono<AuthEnv> {
  const channel = (c: { req: { param(name: 'channel'): string | undefined } }) => c.req.param('channel') ?? '';
  return new Hono<AuthEnv>()
    .post('/', async (c) => {
      const input = await readJson(c, articleWriteSchema);
      const written = await upsertArticle(deps, c.get('principal'), channel(c), input);
      const { created } = written;
      // A write that withdrew public content answers once the output agrees (reported-status.ts).
      const view = await settleWrite(deps, c.get('principal'), channel(c), written.view);
      if (created) c.header('Location', `/api/v1/channels/${view.project}/pages/${view.id}`);
      return c.json({ schema_version: SCHEMA_VERSION, ...view }, created ? 201 : 200);
    })
    .get('/', async (c) => {
      const query = readQuery(c, articleListQuerySchema);
      const result = await listArticles(deps, c.get('principal'), channel(c), query);
      return c.json({ schema_version: SCHEMA_VERSION, ...result });
    })
    .get('/:ref', async (c) => {
      const view = await getArticle(deps, c.get('principal'), channel(c), c.req.param('ref'));
      return c.json({ schema_version: SCHEMA_VERSION, ...view });
    })
    .put('/:ref/translations/:language', async (c) => {
      const language = parseInput(languageSchema, c.req.param('language'), 'language');
      const input = await readJson(c, translationPutSchema);
      const written = await putTranslation(deps, c.get('principal'), channel(c), c.req.param('ref'), language, input, { ifMatch: c.req.header('if-match'), ifNoneMatch: c.req.header('if-none-match') });
      const { created } = written;
      const view = await settleWrite(deps, c.get('principal'), channel(c), written.view);
      return c.json({ schema_version: SCHEMA_VERSION, ...view }, created ? 201 : 200);
    })
    .patch('/:ref/status', async (c) => {
      const input = await readJson(c, statusChangeSchema);
      const view = await settleWrite(deps, c.get('principal'), channel(c), await changeStatus(deps, c.get('principal'), channel(c), c.req.param('ref'), input));
      return c.json({ schema_version: SCHEMA_VERSION, ...view });
    })
    .patch('/:ref/settings', async (c) => {
      const input = await readJson(c, settingsChangeSchema);
      const view = await changeSettings(deps, c.get('principal'), channel(c), c.req.param('ref'), input);
      return c.json({ schema_version: SCHEMA_VERSION, ...view });
    });
}
