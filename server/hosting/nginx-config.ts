/**
 * An nginx configuration that serves the static output (`dist/`) exactly the
 * way the bundled server does (`server/http/routes/site-files.ts`), following
 * the file layout of `server/serving/static-files.ts`:
 *
 * - extensionless HTML addresses → `{path}.html`, `/{path}/` → `{path}/index.html`;
 * - `/api/public/v1/{P}` → `{P}.json`, `{P}.md` → `{P}.md`;
 * - `?lang=L` (validated by a regex `map`; anything else is 404) → `{P}/_lang/L.json|md`,
 *   `/{channel}/{article}?lang=L` → `/{channel}/L/{article}.html`, `/{path}/?lang=L` → `{path}/L/index.html`,
 *   `/{channel}/rss.xml?lang=L` → `{channel}/L/rss.xml` (and `feed.json`); an empty `?lang=` is 404 too;
 * - the `Link` header on article pages (the exact Markdown and JSON of that page);
 * - content types with `charset=utf-8`, Cache-Control, ETag/Last-Modified (nginx's own: size + mtime,
 *   stable because the builder never rewrites unchanged files);
 * - a 404 is the site's 404 page for a browser (`text/html` listed without a q-value, outside `/api/`), in the
 *   language and channel of the address (`server/serving/not-found-page.ts`), the JSON 404 body otherwise.
 *
 * The result is an `http`-context include: a few `map` blocks and one `server` block.
 * @module
 */
import path from 'node:path';
import { HTML_SECURITY_HEADERS } from '../serving/security-headers.ts';
import { PUBLIC_API_PREFIX } from '../urls/public-urls.ts';
import { LANG_SEGMENT_PATTERN, LIST_CURSOR_PATTERN, NOT_FOUND_NAME } from '../serving/static-files.ts';
import { BCP47_PATTERN } from '../domain/language.ts';
import { DEFAULT_LIMIT_PATTERN, HOST_ERRORS, NOT_FOUND_JSON, VALID_LIMIT_PATTERN } from '../serving/host-errors.ts';
import { DEFAULT_TAG_PREFIX, TAG_PREFIX_PATTERN } from '../serving/cache-tags.ts';
import { ERROR_CACHE_CONTROL, IMMUTABLE_CACHE, SHORT_CACHE } from '../serving/cache-policy.ts';
import { CHARSET_TYPES, CONTENT_TYPES } from '../serving/content-types.ts';
import { InternalError } from '../internal-error.ts';
import { SLUG_BODY } from '../domain/slug.ts';

/** Options of {@link renderNginxConfig}. */
export interface NginxConfigOptions {
  /** Absolute path of the output folder (`dist/`). */
  readonly root: string;
  /** The `listen` argument, e.g. `80`, `127.0.0.1:8080`, `[::]:80`. */
  readonly listen: string;
  /** `server_name`; `_` (any) when omitted. */
  readonly serverName?: string;
  /** Prefix of the cache tags (`PRESSROOM_CACHE_TAG_PREFIX`); default `pressroom`. */
  readonly tagPrefix?: string;
}

/** Types sent compressed (as `server/http/compression.ts` decides for the bundled server). */
const COMPRESSED_TYPES: readonly string[] = [...CHARSET_TYPES, 'image/svg+xml'];


/** The Link header value of an article page, as nginx variables (`$c`, `$a` and the `?lang=` part). */
function linkHeader(channel: string, article: string, langQuery: string): string {
  const base = `${PUBLIC_API_PREFIX}/channels/${channel}/articles/${article}`;
  return `<${base}.md${langQuery}>; rel="alternate"; type="text/markdown", <${base}${langQuery}>; rel="alternate"; type="application/json"`;
}

/** Quotes a value for an nginx configuration (double quotes; `"`, `\` and `$` escaped where literal). */
function q(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** Refuses values that could break out of a directive. */
function checkOption(name: string, value: string): void {
  if (!value || /[\s;{}"'\\$#]/.test(value)) throw new InternalError('HOST_CONFIG_INVALID', `nginx ${name} must be non-empty and contain no spaces, quotes, ';', '{', '}', '$' or '#': ${JSON.stringify(value)}`);
}

/**
 * Renders the `http`-context include: `map` blocks (named `$pressroom_*`, so the
 * include can sit next to other servers; include it once per `http`) and one `server` block.
 * @example renderNginxConfig({ root: '/srv/pressroom/dist', listen: '80', serverName: 'news.example.org' })
 */
export function renderNginxConfig(options: NginxConfigOptions): string {
  checkOption('root', options.root);
  checkOption('listen', options.listen.replace(/ /g, '_'));
  const serverName = options.serverName ?? '_';
  checkOption('server_name', serverName.replace(/ /g, '_'));
  if (!options.root.startsWith('/')) throw new InternalError('HOST_CONFIG_INVALID', `nginx root must be an absolute path: ${options.root}`);
  const root = options.root.replace(/\/+$/, '') || '/';
  const api = PUBLIC_API_PREFIX; // "/api/public/v1"

  /**
   * The headers every successful response carries (add_header does not inherit into a location that sets its own).
   * The pages' security headers go on every answer: harmless on files that are not HTML, and one rule fewer to get wrong.
   */
  const security = Object.entries(HTML_SECURITY_HEADERS).map(([name, value]) => `add_header ${name} ${q(value)} always;`);
  const prefix = options.tagPrefix ?? DEFAULT_TAG_PREFIX;
  if (!TAG_PREFIX_PATTERN.test(prefix)) throw new InternalError('HOST_CONFIG_INVALID', `cache tag prefix must be 1 to 40 letters, digits, - or _: ${prefix}`);
  // Cache tags as serving/cache-tags.ts names them: the file answered is $uri once try_files found it.
  const tags = [`add_header Cache-Tag ${q(`${prefix},${prefix}:f:$uri`)};`, `add_header Surrogate-Key ${q(`${prefix} ${prefix}:f:$uri`)};`];
  const headers = (cache: string, extra: string[] = []) =>
    [`add_header Cache-Control ${q(cache)};`, ...tags, 'add_header X-Content-Type-Options nosniff always;', ...security, ...extra].map((l) => `    ${l}`).join('\n');
  const types = Object.entries(CONTENT_TYPES)
    .map(([ext, type]) => `    ${type.padEnd(24)} ${ext};`)
    .join('\n');

  return `# Pressroom static output on nginx: generated by \`npm run host-config -- nginx\`.
# An http-context include: maps + one server block. Mirrors server/serving/static-files.ts
# (the bundled server's mapping); see docs/HOSTING.md.

# ?lang= : empty or absent → "", a valid language tag → itself, anything else → "!" (404).
map $arg_lang $pressroom_lang {
  default "!";
  "" "";
  "~^${LANG_SEGMENT_PATTERN}$" $arg_lang;
}
# File suffixes for ?lang= on the public API (P → P.json | P/_lang/L.json).
map $pressroom_lang $pressroom_json_suffix {
  "" ".json";
  default "/_lang/$pressroom_lang.json";
}
map $pressroom_lang $pressroom_md_suffix {
  "" ".md";
  default "/_lang/$pressroom_lang.md";
}
# Folder of a language for HTML pages (/{channel}/{article}?lang=L → /{channel}/L/{article}).
map $pressroom_lang $pressroom_lang_dir {
  "" "";
  default "/$pressroom_lang";
}
map $pressroom_lang $pressroom_lang_query {
  "" "";
  default "?lang=$pressroom_lang";
}
# A ?lang= that is no language code, on the operations that document 422 for it (lists, an article's JSON):
# "long" (more than 16 characters) or "code"; elsewhere such a value is a 404 (below).
map "$arg_lang|$uri" $pressroom_api_lang {
  default "";
  "~^[^|]{17,}\\|${api}/channels(/[^/]+/articles(/[^/.]+)?)?$" "long";
  "~^(${BCP47_PATTERN})?\\|" "";
  "~^[^|]*\\|${api}/channels(/[^/]+/articles(/[^/.]+)?)?$" "code";
}
# Accept: an article page's Markdown when Markdown is listed first and without a q-value, its only
# parameters ones the Markdown satisfies (charset=utf-8, variant); finer preferences get the page (the
# bundled server weighs q-values, docs/HOSTING.md).
map $http_accept $pressroom_wants_md {
  default 0;
  "~*^\\s*text/markdown\\s*(;\\s*(charset\\s*=\\s*\\x22?utf-8\\x22?|variant\\s*=\\s*\\x22?[\\w.-]+\\x22?)\\s*)*(,|$)" 1;
}
# A 404 is the site's 404 page for a browser: Accept lists text/html without a q-value (as browsers send it), and the
# address is outside /api/. The pages to try, most specific first (server/serving/not-found-page.ts); "/-" is no file.
map $http_accept $pressroom_accepts_html {
  default 0;
  "~*(^|,)\\s*text/html\\s*(,|$)" 1;
}
map "$pressroom_accepts_html:$uri" $pressroom_404_channel_lang {
  default "/-";
  "~^1:/(?!api/)(${SLUG_BODY})/(${LANG_SEGMENT_PATTERN})/" "/$1/$2/${NOT_FOUND_NAME}.html";
}
map "$pressroom_accepts_html:$uri" $pressroom_404_channel {
  default "/-";
  "~^1:/(?!api/)(${SLUG_BODY})/" "/$1/${NOT_FOUND_NAME}.html";
}
map "$pressroom_accepts_html:$uri" $pressroom_404_lang {
  default "/-";
  "~^1:/(?!api/)[^/]+/(${LANG_SEGMENT_PATTERN})/" "/${NOT_FOUND_NAME}/$1.html";
}
map "$pressroom_accepts_html:$uri" $pressroom_404_site {
  default "/-";
  "~^1:/(?!api(/|$))" "/404.html";
}
# The folder of a list's language (P → P, P?lang=L → P/_lang/L), for its cursor pages.
map $pressroom_lang $pressroom_lang_path {
  "" "";
  default "/_lang/$pressroom_lang";
}
# ?cursor= on a list: absent → "" (the first page), a cursor → /_cursor/{cursor}, anything else → a name no file has.
map $arg_cursor $pressroom_cursor {
  "" "";
  "~${LIST_CURSOR_PATTERN.source}" "/_cursor/$arg_cursor";
  default "/_cursor/!";
}
# ?limit= on a list: absent or the default → "", another valid size → "host" (not in the files), anything else → "bad".
map $arg_limit $pressroom_limit {
  "" "";
  "~${DEFAULT_LIMIT_PATTERN}" "";
  "~${VALID_LIMIT_PATTERN}" "host";
  default "bad";
}

server {
  listen ${options.listen};
  server_name ${serverName};
  root ${q(root)};

  charset utf-8;
  # text/html is always in charset_types and gzip_types: listing it again makes \`nginx -t\` warn of a duplicate.
  charset_types ${CHARSET_TYPES.filter((t) => t !== 'text/html').join(' ')};
  # Text answers compressed, like the bundled server's (gzip only: brotli needs a module nginx does not ship).
  # nginx makes the ETag weak on a compressed answer, and If-None-Match still matches it.
  gzip on;
  gzip_vary on;
  gzip_proxied any;
  gzip_comp_level 6;
  gzip_min_length 1024;
  gzip_types ${COMPRESSED_TYPES.filter((t) => t !== 'text/html').join(' ')};
  etag on;
  server_tokens off;
  absolute_redirect off;
  # Only the types the output uses, as the bundled server sends them (replaces mime.types here).
  types {
${types}
  }
  default_type application/octet-stream;

  # Every 404 is the site's 404 page for a browser (the maps above), the public API's JSON error body otherwise.
  error_page 404 @pressroom_not_found;
  location @pressroom_not_found {
    add_header Cache-Control ${q(ERROR_CACHE_CONTROL)} always;
    add_header Vary Accept always;
    add_header X-Content-Type-Options nosniff always;
${security.map((l) => `    ${l}`).join('\n')}
    try_files $pressroom_404_channel_lang $pressroom_404_channel $pressroom_404_lang $pressroom_404_site @pressroom_not_found_json;
  }
  location @pressroom_not_found_json {
    types { }
    default_type application/json;
    add_header Cache-Control ${q(ERROR_CACHE_CONTROL)} always;
    add_header Vary Accept always;
    add_header X-Content-Type-Options nosniff always;
    return 404 ${q(NOT_FOUND_JSON)};
  }

  # Set on article pages that answer with their Markdown (Accept), empty otherwise.
  set $pressroom_md_link "";
  set $pressroom_md_vary "";
  # A ?lang= that is no language code: 422 where the operation documents it, as on the bundled server.
  error_page 422 @pressroom_bad_lang;
  location @pressroom_bad_lang {
    types { }
    default_type application/json;
    add_header Cache-Control ${q(ERROR_CACHE_CONTROL)} always;
    add_header X-Content-Type-Options nosniff always;
    if ($pressroom_api_lang = "long") { return 422 ${q(HOST_ERRORS.langTooLong)}; }
    return 422 ${q(HOST_ERRORS.notALanguage)};
  }
  if ($pressroom_api_lang != "") { return 422; }
  # A malformed ?lang= never names a file; nor does an empty one (\`?lang=\`, which $arg_lang cannot tell from none).
  if ($pressroom_lang = "!") { return 404; }
  if ($args ~ "(^|&)lang=(&|$)") { return 404; }
  # Encoded dots, slashes and backslashes in the path never name an output file (as in fileForRequest).
  if ($request_uri ~ "^[^?]*%(2[eEfF]|5[cC]|00)") { return 404; }
  # The API layout's own folders (_lang, _cursor) are no addresses, the query forms are (the request as sent:
  # the Markdown an article page's Accept asks for is an internal rewrite onto such a file).
  if ($request_uri ~ "^${api}/[^?]*/_") { return 404; }
  # A writer's temporary file (a build killed mid-write) is never served.
  if ($uri ~ "\\.tmp$") { return 404; }
  # A symbolic link is followed only when the link and its target have the same owner.
  disable_symlinks if_not_owner from=$document_root;

  # The 404 page (for hosts that send a file with their 404) is no address of its own, as on the bundled server.
  location = /404 { return 404; }
  location = /404.html { return 404; }
  location ~ "/${NOT_FOUND_NAME}(\\.html)?(/|$)" { return 404; }
  # Nor are the other hosts' configuration files (the Cloudflare worker's source).
  location = /_worker.js { return 404; }
  location = /_headers { return 404; }
  location = /_redirects { return 404; }

  # Hashed build assets and content-addressed media never change.
  location ^~ /_astro/ {
    try_files $uri =404;
${headers(IMMUTABLE_CACHE)}
  }
  location ^~ /media/ {
    try_files $uri =404;
${headers(IMMUTABLE_CACHE)}
  }

  # The search index: its files also carry the index's tag (serving/cache-tags.ts), purged at each rebuild.
  location ^~ /pagefind/ {
    try_files $uri =404;
${headers(SHORT_CACHE).replace(`${prefix},${prefix}:f:$uri`, `${prefix},${prefix}:s,${prefix}:f:$uri`).replace(`${prefix} ${prefix}:f:$uri`, `${prefix} ${prefix}:s ${prefix}:f:$uri`)}
  }

  # Public API: P → P.json, P.md → P.md; ?lang=L → P/_lang/L.json, P/_lang/L.md.
  location = ${api} { return 404; }
  location ^~ ${api}/ {
    location ~ /$ { return 404; }
    # The API's own document is its own file.
    location = ${api}/openapi.json {
      try_files $uri =404;
${headers(SHORT_CACHE)}
    }
    location ~ "^(?<pressroom_md_base>${api}/.+)\\.md$" {
      try_files $pressroom_md_base$pressroom_md_suffix =404;
      # An article page's Markdown (Accept) keeps the page's Link and Vary (empty, so not sent, otherwise).
${headers(SHORT_CACHE, ['add_header Link $pressroom_md_link;', 'add_header Vary $pressroom_md_vary;'])}
    }
    # Lists: ?cursor=T → P/_cursor/T.json (?lang=L: P/_lang/L/_cursor/T.json); a cursor that names no page is
    # a 422 when the list exists (as on the bundled server), 404 when it does not; other page sizes are not files.
    location ~ "^${api}/channels(/[^/]+/articles)?$" {
      types { }
      default_type application/json;
      if ($args ~ "(^|&)cursor=(&|$)") { return 422 ${q(HOST_ERRORS.emptyCursor)}; }
      if ($args ~ "(^|&)(lang|limit|cursor)=[^&]*&(.*&)?\\2=") { return 422 ${q(HOST_ERRORS.repeated)}; }
      if ($pressroom_limit = "bad") { return 422 ${q(HOST_ERRORS.invalidLimit)}; }
      if ($pressroom_limit = "host") { return 422 ${q(HOST_ERRORS.limitNotOnHost)}; }
      try_files $uri$pressroom_lang_path$pressroom_cursor.json @pressroom_no_page;
${headers(SHORT_CACHE)}
    }
    # An article's JSON: include=html is not in the files.
    location ~ "^${api}/channels/[^/]+/articles/[^/]+$" {
      types { }
      default_type application/json;
      if ($args ~ "(^|&)(lang|include)=[^&]*&(.*&)?\\2=") { return 422 ${q(HOST_ERRORS.repeatedOnArticle)}; }
      if ($args ~ "(^|&)include=") { return 422 ${q(HOST_ERRORS.includeNotOnHost)}; }
      try_files $uri$pressroom_json_suffix =404;
${headers(SHORT_CACHE)}
    }
    try_files $uri$pressroom_json_suffix =404;
${headers(SHORT_CACHE)}
  }

  # A list page that is not a file: with a cursor, 422 when the list exists; otherwise 404.
  location @pressroom_no_page {
    types { }
    default_type application/json;
    add_header Cache-Control ${q(ERROR_CACHE_CONTROL)} always;
    add_header X-Content-Type-Options nosniff always;
    if ($pressroom_cursor = "") { return 404; }
    if (-f $document_root$uri$pressroom_lang_path.json) { return 422 ${q(HOST_ERRORS.invalidCursor)}; }
    return 404;
  }

  # A channel's feeds: ?lang=L → that language's feed ({channel}/L/…), or 404; never the unfiltered one.
  location ~ "^/(?<pressroom_fc>[^/]+)/rss\\.xml$" {
    types { }
    default_type application/rss+xml;
    try_files /$pressroom_fc$pressroom_lang_dir/rss.xml =404;
${headers(SHORT_CACHE)}
  }
  location ~ "^/(?<pressroom_fc>[^/]+)/feed\\.json$" {
    types { }
    default_type application/feed+json;
    try_files /$pressroom_fc$pressroom_lang_dir/feed.json =404;
${headers(SHORT_CACHE)}
  }
  # Feeds have their own types.
  location ~ "/rss\\.xml$" {
    types { }
    default_type application/rss+xml;
    try_files $uri =404;
${headers(SHORT_CACHE)}
  }
  location ~ "/feed\\.json$" {
    types { }
    default_type application/feed+json;
    try_files $uri =404;
${headers(SHORT_CACHE)}
  }

  # Dot segments, encoded or not, name no file (fileForRequest): nginx would resolve /media/%2e%2e/x to /x.
  if ($request_uri ~* "^[^?#]*/(\\.|%2e){1,2}(/|\\?|#|$)") {
    return 404;
  }
  # A folder's page has one address, with the trailing slash: /{path}/index(.html) is none (fileForRequest).
  location ~ "/index(\\.html)?$" {
    return 404;
  }
  # Home page (?lang= is accepted and ignored, as by the bundled server).
  location = / {
    try_files /index.html =404;
${headers(SHORT_CACHE)}
  }
  # Channel pages: /{path}/ → {path}/index.html, ?lang=L → {path}/L/index.html.
  location ~ "^(?<pressroom_dir>.*)/$" {
    # (The folder without its slash, so the file, and its cache tag, has one spelling.)
    try_files $pressroom_dir$pressroom_lang_dir/index.html =404;
${headers(SHORT_CACHE)}
  }
  # An article in one language: /{channel}/{lang}/{article} (?lang= ignored).
  location ~ "^/(?<pressroom_c>[^/]+)/(?<pressroom_l>${LANG_SEGMENT_PATTERN})/(?<pressroom_a>(?!index$)[^/.]+)$" {
    # (To the language's file itself: the maps of ?lang= were read with the request's own query.)
    if ($pressroom_wants_md) {
      set $pressroom_md_vary Accept;
      set $pressroom_md_link ${q(linkHeader('$pressroom_c', '$pressroom_a', '?lang=$pressroom_l'))};
      rewrite ^ ${api}/channels/$pressroom_c/articles/$pressroom_a/_lang/$pressroom_l.md? last;
    }
    try_files /$pressroom_c/$pressroom_l/$pressroom_a.html =404;
${headers(SHORT_CACHE, [`add_header Link ${q(linkHeader('$pressroom_c', '$pressroom_a', '?lang=$pressroom_l'))};`, 'add_header Vary Accept;'])}
  }
  # An article's default address: /{channel}/{article}, ?lang=L → /{channel}/L/{article}.
  location ~ "^/(?<pressroom_c>[^/]+)/(?<pressroom_a>(?!index$)[^/.]+)$" {
    if ($pressroom_wants_md) {
      set $pressroom_md_vary Accept;
      set $pressroom_md_link ${q(linkHeader('$pressroom_c', '$pressroom_a', '$pressroom_lang_query'))};
      rewrite ^ ${api}/channels/$pressroom_c/articles/$pressroom_a.md last;
    }
    try_files /$pressroom_c$pressroom_lang_dir/$pressroom_a.html =404;
${headers(SHORT_CACHE, [`add_header Link ${q(linkHeader('$pressroom_c', '$pressroom_a', '$pressroom_lang_query'))};`, 'add_header Vary Accept;'])}
  }
  # Everything else: a path with an extension is that file, an extensionless one is {path}.html.
  location / {
    try_files $uri $uri.html =404;
${headers(SHORT_CACHE)}
  }
}
`;
}

/**
 * A whole `nginx.conf` that runs the generated server block (the file at
 * `include`) from a private folder: pid, error log and temp paths inside
 * `prefix`, in the foreground as one process (`daemon off`, no master, one
 * worker), with Debian's defaults otherwise (`sendfile on`) and no access
 * log. For tests and benchmarks on loopback, and for trying a generated
 * configuration without touching the system's nginx:
 * `nginx -c {prefix}/nginx.conf -p {prefix}`.
 */
export function renderStandaloneNginxConfig(options: { prefix: string; include: string }): string {
  const at = (name: string) => path.join(options.prefix, name);
  return `daemon off;
master_process off;
worker_processes 1;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${at('client_body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
  include ${options.include};
}
`;
}
