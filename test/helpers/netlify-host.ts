/**
 * Netlify's own local emulator (`@netlify/dev`, the library behind
 * `netlify dev`) serving an output folder with the generated `_headers`
 * and `_redirects`, behind a plain HTTP server on a free loopback port.
 * `@netlify/dev` is a dev dependency pinned at 4.18.13, the last release
 * that runs on Node 20.
 *
 * `NetlifyDev.handle` answers what a rule or a file answers and returns
 * nothing otherwise; Netlify itself then sends the site's `404.html` with a
 * 404, and so does this server. Where a 404 rule is involved the emulator
 * departs from Netlify, and this server answers as Netlify documents it,
 * with the emulator's own parts (`@netlify/redirects` to find the rule,
 * `@netlify/static` to find files, `@netlify/headers` for `_headers`):
 * - a rule with status 404 (`/{channel}/*  /{channel}/_404.html  404`,
 *   Netlify's form of a folder's 404 page) is answered with 404, where the
 *   emulator drops the status and sends 200;
 * - a file under such a rule is served with its own `_headers` rules, where
 *   the emulator applies the rule target's;
 * - a forced 404 rule (`404!`) sends its target page, where the emulator
 *   sends a plain "Not found".
 * These, and the site's 404 page, are the only parts it supplies.
 * @module
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { NetlifyDev } from '@netlify/dev';
import { RedirectsHandler } from '@netlify/redirects';
import { StaticHandler } from '@netlify/static';
import { HeadersHandler } from '@netlify/headers';
import { listSite, renderNetlifyHeaders, renderNetlifyRedirects } from '../../server/hosting/netlify-config.ts';
import { freePort } from './free-port.ts';

/** A running emulator. */
export interface NetlifyHost {
  readonly url: string;
  /** Writes `_headers` and `_redirects` again from the folder (Netlify's rules are listed per article: after each build). */
  regenerate(): void;
  stop(): Promise<void>;
}

/** Writes the Netlify files into `dist` and serves it. */
export async function startNetlify(dist: string): Promise<NetlifyHost> {
  const regenerate = () => {
    const site = listSite(dist);
    fs.writeFileSync(path.join(dist, '_headers'), renderNetlifyHeaders(site));
    fs.writeFileSync(path.join(dist, '_redirects'), renderNetlifyRedirects(site));
  };
  regenerate();
  // The emulator keeps its state in `.netlify/` under the project root, and reads `_redirects` from the published
  // folder only when that lies inside the project: the project is the folder that holds `dist`.
  const project = path.dirname(path.resolve(dist));
  const toml = path.join(project, 'netlify.toml');
  fs.writeFileSync(toml, `[build]\npublish = ${JSON.stringify(path.basename(dist))}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const options = {
    projectRoot: project,
    serverAddress: url,
    skipGitignore: true,
    database: { enabled: false },
    geolocation: { enabled: false },
    aiGateway: { enabled: false },
    redirects: { enabled: true },
    staticFiles: { enabled: true },
    headers: { enabled: true },
    functions: { enabled: false },
    edgeFunctions: { enabled: false },
    blobs: { enabled: false },
    environmentVariables: { enabled: false },
    images: { enabled: false },
  };
  const dev = new NetlifyDev(options as ConstructorParameters<typeof NetlifyDev>[0]);
  await dev.start();
  const publishDir = path.resolve(dist);
  const rules = new RedirectsHandler({ configPath: toml, projectDir: project, publicDir: publishDir, jwtRoleClaim: '', jwtSecret: '' } as ConstructorParameters<typeof RedirectsHandler>[0]);
  const files = new StaticHandler({ directory: publishDir });
  const headers = new HeadersHandler({ configPath: toml, projectDir: project, publishDir } as ConstructorParameters<typeof HeadersHandler>[0]);
  const notFoundPage = () => new Response(fs.readFileSync(path.join(dist, '404.html')), { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
  /** A rule's answer as Netlify sends it where a 404 rule is involved (see the module doc). */
  const asNetlifyAnswers = async (request: Request, emulated: Response): Promise<Response> => {
    const rule = await rules.match(request);
    if (!rule || rule.redirect || rule.statusCode !== 404) return emulated;
    await emulated.body?.cancel();
    const own = rule.force ? undefined : await files.match(request);
    if (own) {
      const response = await own.handle();
      await headers.apply(request, response);
      return response;
    }
    const target = await files.match(new Request(rule.target));
    if (!target) return notFoundPage();
    const page = await target.handle();
    const response = new Response(page.body, { status: 404, headers: page.headers });
    await headers.apply(request, response);
    return response;
  };
  const server = http.createServer(async (req, res) => {
    try {
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers as Record<string, string> });
      const result = await dev.handleAndIntrospect(request);
      const answer = result?.type === 'redirect' ? await asNetlifyAnswers(request, result.response) : (result?.response ?? notFoundPage());
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body && req.method !== 'HEAD') Readable.fromWeb(answer.body as never).pipe(res);
      else res.end();
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url,
    regenerate() {
      regenerate();
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dev.stop();
      fs.rmSync(toml, { force: true });
      fs.rmSync(path.join(project, '.netlify'), { recursive: true, force: true });
    },
  };
}

