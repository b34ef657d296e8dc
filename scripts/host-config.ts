/**
 * `npm run host-config -- nginx|netlify|cloudflare|r2|cloudfront|varnish`: the configuration that
 * serves the static output (`dist/`) on a static host, printed to stdout or
 * written into a folder. See docs/HOSTING.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderCloudflareWorker, renderR2WranglerConfig } from '../server/hosting/cloudflare-config.ts';
import { renderCloudFrontFunction, renderCloudFrontSettings } from '../server/hosting/cloudfront-config.ts';
import { listSite, renderNetlifyHeaders, renderNetlifyRedirects } from '../server/hosting/netlify-config.ts';
import { renderNginxConfig } from '../server/hosting/nginx-config.ts';
import { renderVarnishConfig } from '../server/hosting/varnish-config.ts';
import { parseScriptArgs, wantsHelp } from './lib/cli.ts';
import { describeError } from '../server/describe-error.ts';
import { ConfigError, loadConfig } from '../server/config.ts';

const PROGRAM = 'npm run host-config --';
const HOSTS = ['nginx', 'netlify', 'cloudflare', 'r2', 'cloudfront', 'varnish'] as const;

const HELP = `Usage: ${PROGRAM} nginx|netlify|cloudflare|r2|cloudfront|varnish [--out DIR] [--root DIR] [--listen ADDR] [--server-name NAME] [--backend ADDR] [--purge-from NETS]

Prints the configuration that serves the static output on a host, or writes
it into DIR (--out):

  nginx       pressroom.conf: maps + one server block, to include in nginx's
              http context. --root is the output folder nginx serves
              (default ./dist, made absolute), --listen its listen address
              (default 80), --server-name its server_name (default _).
  netlify     _headers and _redirects, for the published folder. Lists the
              articles in --root (default ./dist) for their Link headers and
              Markdown ?lang= rules: regenerate after each build, e.g.
              ${PROGRAM} netlify --root dist --out dist
  cloudflare  _worker.js for Cloudflare Pages: maps ?lang=, ?cursor= and
              the .md forms onto files as the bundled server does, e.g.
              ${PROGRAM} cloudflare --out dist
  r2          worker.js and wrangler.toml: the same worker in front of the R2
              bucket the site is deployed to (PRESSROOM_DEPLOY_S3_BUCKET and
              _PREFIX), bound as BUCKET; npx wrangler deploy in --out DIR.
  cloudfront  index.mjs and distribution.json: the Lambda@Edge function
              (viewer request, Node.js) that maps addresses onto the keys of
              the S3 bucket the site is deployed to (PRESSROOM_DEPLOY_S3_PREFIX),
              and the distribution settings it needs (cache policy, security
              headers, 404 error responses).
  varnish     pressroom.vcl: Varnish (with varnish-modules' xkey) in front of
              the bundled server at --backend (default 127.0.0.1:4321),
              purged by the service (PRESSROOM_PURGE_VARNISH_URL) from the
              addresses in --purge-from (comma-separated; default loopback).

Cache tags carry PRESSROOM_CACHE_TAG_PREFIX (default pressroom).

See docs/HOSTING.md for what each host can and cannot route.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\nSee ${PROGRAM} --help.\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
if (wantsHelp(argv)) {
  process.stdout.write(HELP);
  process.exit(0);
}
const { positionals, values } = parseScriptArgs(
  PROGRAM,
  {
    usage: 'nginx|netlify|cloudflare|r2|cloudfront|varnish [--out DIR] [--root DIR] [--listen ADDR] [--server-name NAME] [--backend ADDR] [--purge-from NETS]',
    options: {
      out: { kind: 'value', placeholder: 'DIR', description: 'Write the files into DIR instead of printing them.' },
      root: { kind: 'value', placeholder: 'DIR', description: 'The output folder (default ./dist).' },
      listen: { kind: 'value', placeholder: 'ADDR', description: 'nginx: the listen address (default 80).' },
      'server-name': { kind: 'value', placeholder: 'NAME', description: 'nginx: server_name (default _).' },
      backend: { kind: 'value', placeholder: 'ADDR', description: 'varnish: the bundled server, host:port (default 127.0.0.1:4321).' },
      'purge-from': { kind: 'value', placeholder: 'NETS', description: 'varnish: addresses allowed to purge, comma-separated (default 127.0.0.1,::1).' },
    },
    positionals: ['HOST'],
  },
  argv,
);
const host = positionals[0] as (typeof HOSTS)[number];
if (!HOSTS.includes(host)) fail(`Unknown host "${positionals[0]}". Choose one of: ${HOSTS.join(', ')}.`);
if (host !== 'nginx' && (values.listen !== undefined || values['server-name'] !== undefined)) fail('--listen and --server-name are for nginx only.');
if (host !== 'varnish' && (values.backend !== undefined || values['purge-from'] !== undefined)) fail('--backend and --purge-from are for varnish only.');
const root = path.resolve(values.root ?? 'dist');

let files: Record<string, string>;
try {
  // The cache tags the generated files send carry the prefix the service purges (PRESSROOM_CACHE_TAG_PREFIX).
  const tagPrefix = loadConfig(process.env, process.cwd()).cacheTagPrefix;
  if (host === 'nginx') {
    files = { 'pressroom.conf': renderNginxConfig({ root, listen: values.listen ?? '80', serverName: values['server-name'], tagPrefix }) };
  } else if (host === 'netlify') {
    if (!fs.existsSync(root)) fail(`The output folder ${root} does not exist: build the site first, or pass --root.`);
    const site = listSite(root);
    files = { _headers: renderNetlifyHeaders(site, tagPrefix), _redirects: renderNetlifyRedirects(site) };
  } else if (host === 'r2') {
    const config = loadConfig(process.env, process.cwd());
    if (!config.deployBucket) fail('r2 needs the bucket: set PRESSROOM_DEPLOY_S3_BUCKET (and PRESSROOM_DEPLOY_S3_PREFIX if the site is in a folder of it).');
    files = {
      'worker.js': await renderCloudflareWorker({ tagPrefix, bucketPrefix: config.deployBucket.prefix }),
      'wrangler.toml': renderR2WranglerConfig(config.deployBucket.bucket),
    };
  } else if (host === 'cloudfront') {
    const config = loadConfig(process.env, process.cwd());
    const bucketPrefix = config.deployBucket?.prefix ?? '';
    files = {
      'index.mjs': await renderCloudFrontFunction({ bucketPrefix }),
      'distribution.json': `${JSON.stringify(renderCloudFrontSettings({ bucketPrefix }), null, 2)}\n`,
    };
  } else if (host === 'varnish') {
    const purgers = values['purge-from']?.split(',').map((p) => p.trim()).filter(Boolean);
    files = { 'pressroom.vcl': renderVarnishConfig({ backend: values.backend ?? '127.0.0.1:4321', ...(purgers ? { purgers } : {}) }) };
  } else {
    files = { '_worker.js': await renderCloudflareWorker({ tagPrefix }) };
  }
} catch (error) {
  fail(error instanceof ConfigError ? error.message : describeError(error));
}

if (values.out === undefined) {
  for (const [name, text] of Object.entries(files)) process.stdout.write(Object.keys(files).length > 1 ? `# ==> ${name} <==\n${text}\n` : text);
} else {
  fs.mkdirSync(values.out, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(values.out, name), text);
    process.stdout.write(`wrote ${path.join(values.out, name)}\n`);
  }
}
