/**
 * The host config renderers: the lines that carry the mapping of
 * `server/serving/static-files.ts` (the real nginx is exercised in test/e2e/nginx.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeOf } from '../serving/content-types.ts';
import { renderCloudflareWorker } from './cloudflare-config.ts';
import { renderCloudFrontFunction, renderCloudFrontSettings } from './cloudfront-config.ts';
import { HOST_ERRORS } from '../serving/host-errors.ts';
import { listSite, renderNetlifyHeaders, renderNetlifyRedirects, type SiteListing } from './netlify-config.ts';
import { renderNginxConfig } from './nginx-config.ts';
import { CHARSET_TYPES, CONTENT_TYPES } from '../serving/content-types.ts';
import { CONTENT_SECURITY_POLICY } from '../serving/security-headers.ts';

const nginx = renderNginxConfig({ root: '/srv/pressroom/dist', listen: '127.0.0.1:8080', serverName: 'news.example.org' });
const site: SiteListing = {
  channels: [{ slug: 'tech', languages: ['ar', 'en'] }],
  articles: [{ channel: 'tech', slug: 'hello', languages: ['ar', 'en'] }],
};

describe('nginx', () => {
  it('validates ?lang= with a regex map; anything else is 404', () => {
    expect(nginx).toContain('map $arg_lang $pressroom_lang {');
    expect(nginx).toContain('"~^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$" $arg_lang;');
    expect(nginx).toContain('default "!";');
    expect(nginx).toContain('if ($pressroom_lang = "!") { return 404; }');
  });

  it('maps the public API onto .json / .md and the _lang files', () => {
    expect(nginx).toContain('default "/_lang/$pressroom_lang.json";');
    expect(nginx).toContain('default "/_lang/$pressroom_lang.md";');
    expect(nginx).toContain('try_files $uri$pressroom_json_suffix =404;');
    expect(nginx).toContain('try_files $pressroom_md_base$pressroom_md_suffix =404;');
  });

  it('maps a channel feed with ?lang= onto that language\'s feed, and refuses an empty ?lang=', () => {
    expect(nginx).toContain('try_files /$pressroom_fc$pressroom_lang_dir/rss.xml =404;');
    expect(nginx).toContain('try_files /$pressroom_fc$pressroom_lang_dir/feed.json =404;');
    expect(nginx).toContain('if ($args ~ "(^|&)lang=(&|$)") { return 404; }');
  });

  it('maps article pages, ?lang= on the default address, and sends the Link header', () => {
    expect(nginx).toContain('try_files /$pressroom_c$pressroom_lang_dir/$pressroom_a.html =404;');
    expect(nginx).toContain(
      'add_header Link "</api/public/v1/channels/$pressroom_c/articles/$pressroom_a.md?lang=$pressroom_l>; rel=\\"alternate\\"; type=\\"text/markdown\\", </api/public/v1/channels/$pressroom_c/articles/$pressroom_a?lang=$pressroom_l>; rel=\\"alternate\\"; type=\\"application/json\\"";',
    );
    expect(nginx).toContain('$pressroom_a.md$pressroom_lang_query>');
    expect(nginx).toContain('try_files $uri $uri.html =404;');
  });

  it('sends the types of the bundled server, with charset=utf-8', () => {
    expect(nginx).toMatch(/^ {4}text\/markdown +md;$/m);
    expect(nginx).toMatch(/^ {4}application\/json +json;$/m);
    expect(nginx).toContain('default_type application/rss+xml;');
    expect(nginx).toContain('default_type application/feed+json;');
    expect(nginx).toContain('charset utf-8;');
    expect(nginx).toContain('etag on;');
    for (const [ext, type] of Object.entries(CONTENT_TYPES)) {
      const bundled = contentTypeOf(`x.${ext}`);
      if (bundled === 'application/octet-stream') continue; // the bundled server does not know it
      const [base, params] = bundled.split('; ');
      expect(type, ext).toBe(base);
      expect(CHARSET_TYPES.includes(type), ext).toBe(params === 'charset=utf-8');
    }
  });

  it('sets Cache-Control and the JSON 404', () => {
    expect(nginx).toContain('add_header Cache-Control "public, max-age=31536000, immutable";');
    expect(nginx).toContain('add_header Cache-Control "public, max-age=60, must-revalidate";');
    expect(nginx).toContain('error_page 404 @pressroom_not_found;');
    expect(nginx).toContain('return 404 "{\\"schema_version\\":\\"1.0\\",\\"error\\":{\\"code\\":\\"NOT_FOUND\\"');
    expect(nginx).toContain('listen 127.0.0.1:8080;');
    expect(nginx).toContain('server_name news.example.org;');
    expect(nginx).toContain('root "/srv/pressroom/dist";');
  });

  it('refuses options that would break the config', () => {
    expect(() => renderNginxConfig({ root: 'dist', listen: '80' })).toThrow(/absolute/);
    expect(() => renderNginxConfig({ root: '/srv/a;b', listen: '80' })).toThrow();
    expect(() => renderNginxConfig({ root: '/srv', listen: '80; include /x' })).toThrow();
  });
});

describe('Netlify', () => {
  it('rewrites ?lang= only to files that exist, then answers any other language with a forced 404', () => {
    const r = renderNetlifyRedirects(site);
    // Where the address without ?lang= is a file, a placeholder rule would fall back to it: one rule per language.
    expect(r).toContain('/api/public/v1/channels/tech/articles/hello.md  lang=ar  /api/public/v1/channels/tech/articles/hello/_lang/ar.md  200!');
    expect(r).toContain('/api/public/v1/channels/tech/articles/hello.md  lang=:lang  /404.html  404!');
    expect(r).toContain('/tech/hello  lang=ar  /tech/ar/hello  200!');
    expect(r).toContain('/:channel/:article  lang=:lang  /404.html  404!');
    expect(r).toContain('/tech/rss.xml  lang=ar  /tech/ar/rss.xml  200!');
    expect(r).toContain('/:channel/rss.xml  lang=:lang  /404.html  404!');
    expect(r).not.toContain('/:channel/:lang/:article  200!');
    expect(r).toContain('/api/public/v1/*  lang=:lang  /api/public/v1/:splat/_lang/:lang.json  200!');
    expect(r).toContain('/api/public/v1/*  /api/public/v1/:splat.json  200');
    // Order: each language's rules before the forced 404, ?lang= before the plain rewrite.
    expect(r.indexOf('hello.md  lang=ar')).toBeLessThan(r.indexOf('hello.md  lang=:lang'));
    expect(r.indexOf('/tech/rss.xml  lang=ar')).toBeLessThan(r.indexOf('/:channel/rss.xml  lang=:lang'));
    expect(r.indexOf('/api/public/v1/*  lang')).toBeLessThan(r.indexOf('/api/public/v1/*  /api'));
  });

  it('sends Link, types and Cache-Control per path', () => {
    const h = renderNetlifyHeaders(site);
    expect(h).toContain('/tech/ar/hello\n  Link: </api/public/v1/channels/tech/articles/hello.md?lang=ar>; rel="alternate"; type="text/markdown", </api/public/v1/channels/tech/articles/hello?lang=ar>; rel="alternate"; type="application/json"');
    expect(h).toContain('/tech/hello\n  Link: </api/public/v1/channels/tech/articles/hello.md>; rel="alternate"; type="text/markdown", </api/public/v1/channels/tech/articles/hello>; rel="alternate"; type="application/json"');
    expect(h).toContain('/api/public/v1/channels/tech/articles/hello.md\n  Content-Type: text/markdown; charset=utf-8');
    expect(h).toContain('/tech/ar/rss.xml\n  Content-Type: application/rss+xml; charset=utf-8');
    expect(h).toContain('/_astro/*\n  Cache-Control: public, max-age=31536000, immutable');
  });

  it('lists channels and articles from an output folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-listing-'));
    try {
      const a = path.join(dir, 'api/public/v1/channels/tech/articles');
      fs.mkdirSync(path.join(a, 'hello/_lang'), { recursive: true });
      fs.mkdirSync(path.join(a, '_lang'), { recursive: true });
      for (const f of ['hello/_lang/en.md', 'hello/_lang/ar.md', 'hello/_lang/en.json', '_lang/en.json', '_lang/ar.json']) fs.writeFileSync(path.join(a, f), '');
      expect({ ...listSite(dir), sitemaps: undefined }).toEqual({
        channels: [{ slug: 'tech', languages: ['ar', 'en'] }],
        articles: [{ channel: 'tech', slug: 'hello', languages: ['ar', 'en'] }],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Cloudflare Pages', () => {
  it('is one worker module with nothing to import, carrying the bundled server\'s error bodies', async () => {
    const worker = await renderCloudflareWorker();
    expect(worker).toMatch(/^export \{|\nexport \{/);
    expect(worker).not.toMatch(/^import |\nimport |require\("/);
    expect(worker).toContain('Not a valid cursor for this list');
    expect(HOST_ERRORS.invalidCursor).toContain('Not a valid cursor for this list');
  }, 30_000);
});

describe('security headers (issue 18: pages had no CSP, X-Frame-Options or Referrer-Policy)', () => {
  const csp = CONTENT_SECURITY_POLICY;

  it('the policy allows the site\'s own scripts and Pagefind\'s WebAssembly, and nothing inline', () => {
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('nginx sends them with every answer, and refuses temporary files and foreign symbolic links', () => {
    expect(nginx).toContain(`add_header Content-Security-Policy "${csp}" always;`);
    expect(nginx).toContain('add_header X-Frame-Options "DENY" always;');
    expect(nginx).toContain('add_header Referrer-Policy "strict-origin-when-cross-origin" always;');
    // Every location that sets headers sets all of them (add_header does not inherit).
    const count = (text: string) => nginx.split(text).length - 1;
    expect(count('add_header Content-Security-Policy')).toBe(count('add_header X-Content-Type-Options nosniff always;') - 3); // the three JSON error locations
    expect(nginx).toContain('if ($uri ~ "\\.tmp$") { return 404; }');
    expect(nginx).toContain('disable_symlinks if_not_owner from=$document_root;');
  });

  it('Netlify sends them on every path (the Cloudflare worker sends the bundled server\'s, checked in wrangler)', () => {
    for (const headers of [renderNetlifyHeaders(site)]) {
      const all = headers.slice(headers.indexOf('/*\n'), headers.indexOf('\n\n', headers.indexOf('/*\n')));
      expect(all).toContain(`  Content-Security-Policy: ${csp}`);
      expect(all).toContain('  X-Frame-Options: DENY');
      expect(all).toContain('  Referrer-Policy: strict-origin-when-cross-origin');
      expect(all).toContain('  X-Content-Type-Options: nosniff');
    }
  });
});

describe('the edge configurations', () => {
  it('Varnish: files answers under their Surrogate-Key tags, purges by xkey from the purgers only, passes the publishing API', async () => {
    const { renderVarnishConfig } = await import('./varnish-config.ts');
    const vcl = renderVarnishConfig({ backend: '127.0.0.1:4321', purgers: ['127.0.0.1', '10.0.0.0/8'] });
    expect(vcl).toContain('import xkey;');
    expect(vcl).toContain('.host = "127.0.0.1";');
    expect(vcl).toContain('"10.0.0.0"/8;');
    expect(vcl).toContain('set beresp.http.xkey = beresp.http.Surrogate-Key;');
    expect(vcl).toContain('xkey.purge(req.http.xkey-purge)');
    expect(vcl).toMatch(/\^\/api\/v1/);
    expect(renderVarnishConfig({ backend: '[::1]:8080' })).toContain('.host = "::1";');
    expect(() => renderVarnishConfig({ backend: 'localhost' })).toThrow(/host:port/);
    expect(() => renderVarnishConfig({ backend: '127.0.0.1:1', purgers: ['"; }'] })).toThrow(/IP address/);
  });

  it('R2: the worker reads the bucket bound as BUCKET, with the deploy prefix', async () => {
    const { renderR2WranglerConfig } = await import('./cloudflare-config.ts');
    expect(renderR2WranglerConfig('my-site')).toContain('binding = "BUCKET"\nbucket_name = "my-site"');
    expect(() => renderR2WranglerConfig('Not A Bucket')).toThrow(/bucket name/);
    const worker = await renderCloudflareWorker({ bucketPrefix: 'site/' });
    expect(worker).toContain('bucketPrefix: "site/"');
  });
});

describe('CloudFront (Lambda@Edge in front of S3)', () => {
  it('bundles the function into one module with no imports, with the deploy prefix and the hosts\' bodies', async () => {
    const code = await renderCloudFrontFunction({ bucketPrefix: 'site/' });
    expect(code).not.toMatch(/^import /m);
    expect(code).toMatch(/^export \{[^}]*\bhandler\b/m);
    expect(code).toContain('"site/"');
    expect(code).toContain('This static host serves pages of the default size only');
  });

  it('keys the cache on the path alone, sends the security headers and answers a missing key with the 404 page, uncached', () => {
    const settings = renderCloudFrontSettings({ bucketPrefix: 'site/' }) as {
      CachePolicy: { ParametersInCacheKeyAndForwardedToOrigin: Record<string, { QueryStringBehavior?: string; HeaderBehavior?: string; CookieBehavior?: string }> };
      ResponseHeadersPolicy: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string } } };
      CustomErrorResponses: { Items: Array<{ ErrorCode: number; ResponsePagePath: string; ResponseCode: string; ErrorCachingMinTTL: number }> };
    };
    const key = settings.CachePolicy.ParametersInCacheKeyAndForwardedToOrigin;
    expect([key.QueryStringsConfig!.QueryStringBehavior, key.HeadersConfig!.HeaderBehavior, key.CookiesConfig!.CookieBehavior]).toEqual(['none', 'none', 'none']);
    expect(settings.ResponseHeadersPolicy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
    expect(settings.CustomErrorResponses.Items).toEqual([
      { ErrorCode: 403, ResponsePagePath: '/site/404.html', ResponseCode: '404', ErrorCachingMinTTL: 0 },
      { ErrorCode: 404, ResponsePagePath: '/site/404.html', ResponseCode: '404', ErrorCachingMinTTL: 0 },
    ]);
  });
});
