/**
 * Configuration: read once from the environment, validated, frozen, and
 * passed down. No other module reads `process.env`.
 * Every setting is documented in README.md ("Configuration").
 * @module
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TAG_PREFIX, TAG_PREFIX_PATTERN } from './serving/cache-tags.ts';

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must start with http:// or https://');

const megabytes = z.coerce.number().positive().max(1024);

const envSchema = z.object({
  PORT: port.default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  PRESSROOM_DATA_DIR: z.string().min(1).default('data'),
  PRESSROOM_DATABASE_URL: z
    .string()
    .url()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must start with postgres:// or postgresql:// (leave it unset for the SQLite file in PRESSROOM_DATA_DIR)')
    .optional(),
  PRESSROOM_PUBLIC_URL: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), 'must start with http:// or https://')
    .optional(),
  PRESSROOM_DASHBOARD_URL: z.string().url().optional(),
  PRESSROOM_OUTPUT_DIR: z.string().min(1).default('dist'),
  PRESSROOM_CONTENT_DIR: z.string().min(1).default('content'),
  PRESSROOM_MAX_BODY_MB: megabytes.default(20),
  PRESSROOM_MAX_IMAGE_MB: megabytes.default(10),
  PRESSROOM_DRAFT_MEDIA_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
  PRESSROOM_IMPORT_CONTENT: boolean.default('true'),
  PRESSROOM_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  PRESSROOM_MODERATION_FILE: z.string().min(1).optional(),
  PRESSROOM_SITE_NAME: z.string().min(1).max(200).default('Pressroom'),
  PRESSROOM_CONTENT_SIGNAL: z.string().regex(/^[a-z-]+=(yes|no)(, *[a-z-]+=(yes|no))*$/, 'must look like "search=yes, ai-train=no"').default('search=yes, ai-input=yes, ai-train=no'),
  PRESSROOM_STATIC_BUILD: boolean.default('true'),
  PRESSROOM_SOCIAL_CARDS: boolean.default('true'),
  PRESSROOM_LOG_REQUESTS: boolean.default('true'),
  PRESSROOM_WATCH_CONTENT: boolean.default('true'),
  PRESSROOM_STANDBY: boolean.default('false'),
  PRESSROOM_ROLE: z.enum(['server', 'web']).default('server'),
  PRESSROOM_CACHE_MAX_AGE: z.coerce.number().int().min(0).max(31_536_000).default(60),
  PRESSROOM_ANSWER_CACHE_MB: z.coerce.number().int().min(0).max(1_048_576).default(4096),
  PRESSROOM_RATE_LIMIT_CONTENT: z.coerce.number().int().min(0).max(1_000_000).default(120),
  PRESSROOM_RATE_LIMIT_SEARCH: z.coerce.number().int().min(0).max(1_000_000).default(60),
  PRESSROOM_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  PRESSROOM_BUILD_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  PRESSROOM_SEARCH_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  PRESSROOM_SEARCH_REST_FACTOR: z.coerce.number().min(0).max(100).default(3),
  PRESSROOM_BODY_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  PRESSROOM_BODY_TIME_LIMIT_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
  PRESSROOM_BODY_QUEUE_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(200),
  PRESSROOM_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).default(25),
  PRESSROOM_EVENT_LOOP_REPORT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  PRESSROOM_CACHE_TAG_PREFIX: z.string().regex(TAG_PREFIX_PATTERN, 'must be 1 to 40 letters, digits, - or _').default(DEFAULT_TAG_PREFIX),
  PRESSROOM_PURGE_VARNISH_URL: httpUrl.optional(),
  PRESSROOM_PURGE_CLOUDFLARE_ZONE: z.string().regex(/^[a-f0-9]{32}$/, 'must be the 32-hex-digit zone ID of the Cloudflare dashboard').optional(),
  PRESSROOM_PURGE_CLOUDFLARE_TOKEN: z.string().min(1).optional(),
  PRESSROOM_PURGE_CLOUDFLARE_API: httpUrl.default('https://api.cloudflare.com/client/v4'),
  PRESSROOM_PURGE_FASTLY_SERVICE: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be the service ID of the Fastly dashboard').optional(),
  PRESSROOM_PURGE_FASTLY_TOKEN: z.string().min(1).optional(),
  PRESSROOM_PURGE_FASTLY_API: httpUrl.default('https://api.fastly.com'),
  PRESSROOM_PURGE_CLOUDFRONT_DISTRIBUTION: z.string().regex(/^[A-Z0-9]{1,64}$/, 'must be the distribution ID (capital letters and digits)').optional(),
  PRESSROOM_PURGE_CLOUDFRONT_ENDPOINT: httpUrl.optional(),
  PRESSROOM_PURGE_WEBHOOK_URL: httpUrl.optional(),
  PRESSROOM_PURGE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  PRESSROOM_DEPLOY_S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens').optional(),
  PRESSROOM_DEPLOY_S3_ENDPOINT: httpUrl.optional(),
  PRESSROOM_DEPLOY_S3_REGION: z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1, or auto (R2)').default('us-east-1'),
  PRESSROOM_DEPLOY_S3_PREFIX: z.string().regex(/^(?:[A-Za-z0-9._-]+\/)*$/, 'must be empty or folders ending in /, e.g. site/').default(''),
  PRESSROOM_DEPLOY_S3_PATH_STYLE: boolean.default('false'),
  PRESSROOM_STATIC_HOST: z.enum(['none', 'netlify', 'cloudflare'], { errorMap: () => ({ message: 'must be none, netlify or cloudflare (nginx reads its configuration from outside the output: npm run host-config -- nginx)' }) }).default('none'),
});

/** Every environment variable the configuration reads (each documented in README.md, "Configuration"). */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.keys(envSchema.shape));

/** The validated, frozen configuration. */
export interface Config {
  /** TCP port of the bundled server. */
  readonly port: number;
  /** Interface the bundled server listens on. */
  readonly host: string;
  /** Folder for the SQLite database and other state. */
  readonly dataDir: string;
  /** Path of the SQLite database file (used when {@link Config.databaseUrl} is null). */
  readonly databaseFile: string;
  /** The Postgres database (`postgres://…`), or null for the SQLite file. */
  readonly databaseUrl: string | null;
  /** Where the data lives, as `openDatabase` takes it: the Postgres URL when set, else the SQLite file. */
  readonly database: string;
  /** Base of every absolute URL the service emits, without a trailing slash. */
  readonly publicUrl: string;
  /** Base of dashboard addresses (`edit_url`), without a trailing slash. */
  readonly dashboardUrl: string;
  /** Folder the static site is written to. */
  readonly outputDir: string;
  /** Folder of editors' Markdown. */
  readonly contentDir: string;
  /** Largest accepted JSON request body, in bytes. */
  readonly maxBodyBytes: number;
  /** Largest accepted image file of a media upload, in bytes (checked exactly). */
  readonly maxImageBytes: number;
  /** Age after which unused draft media are deleted by the cleanup job, in ms. */
  readonly draftMediaMaxAgeMs: number;
  /** Import content/ at start. */
  readonly importContent: boolean;
  /** Name of the site, in page titles, feeds and llms.txt. */
  readonly siteName: string;
  /** The `Content-Signal` line of robots.txt. */
  readonly contentSignal: string;
  /** Build the static output in the running service. */
  readonly staticBuild: boolean;
  /** Draw a link-preview card (PNG) for each page without an image of its own (`server/render/social-card.ts`). */
  readonly socialCards: boolean;
  /** Whether each request is logged (at `info`). */
  readonly logRequests: boolean;
  /** Where drawn cards are kept by content hash, so a rebuilt output does not draw them again (`{dataDir}/cards`). */
  readonly cardCacheDir: string;
  /** Where the server keeps `include=html` documents it made (`{dataDir}/answers`, emptied at start; `http/answer-files.ts`). */
  readonly answerCacheDir: string;
  /** Bytes of such documents kept there at most (0: none are kept). */
  readonly answerCacheBytes: number;
  /** Watch content/ while running and import edits (needs importContent). */
  readonly watchContent: boolean;
  /**
   * When another server holds the Postgres database: wait, and take over
   * when it stops or dies (`PRESSROOM_STANDBY`), rather than refuse to start.
   */
  readonly standby: boolean;
  /**
   * `server`: builds, runs the jobs and watches content/ (one holds a
   * Postgres database at a time); `web`: answers both APIs beside it on the
   * same Postgres database and output folder, building nothing (`PRESSROOM_ROLE`, issue 38).
   */
  readonly role: 'server' | 'web';
  /** JSON file with the moderation rules; null for the defaults. */
  readonly moderationFile: string | null;
  /** Seconds public documents may be cached before revalidation (Cache-Control max-age). */
  readonly cacheMaxAgeSeconds: number;
  /** Public content API requests per minute per client address; 0 disables the limit. */
  readonly rateLimitContent: number;
  /** Public searches per minute per client address; 0 disables the limit. */
  readonly rateLimitSearch: number;
  /**
   * Proxies in front of the server whose X-Forwarded-For entries are trusted:
   * 0 uses the connection's address; n uses the n-th address from the right.
   */
  readonly trustProxyHops: number;
  /**
   * Worker threads that render a full build; above 0, also the service's builder on a thread of its own and one
   * thread for the builder's writes (0: build, render and write on the main thread only).
   */
  readonly buildWorkers: number;
  /**
   * Pagefind processes that index search shards at once. Default: one more than `buildWorkers`, because each
   * process waits part of the time (writing its bundle, its next records), and on two cores two processes left
   * part of the cores idle during a full index (docs/PERFORMANCE-HISTORY.md, issue 17's eighth session).
   */
  readonly searchProcesses: number;
  /**
   * How long the search keeper rests between two rebuilds, as a multiple of the last one's time (at most
   * `SEARCH_REST_MAX_MS`): while publishes keep coming, Pagefind takes at most 1 / (1 + factor) of the time. 0:
   * rebuild back to back.
   */
  readonly searchRestFactor: number;
  /** Worker threads that prepare and render saved bodies off the request thread (0: in the request thread, without a time limit). */
  readonly bodyWorkers: number;
  /** Longest a body may take on a body thread before the save is refused with 422. */
  readonly bodyTimeLimitMs: number;
  /** Bodies one account may have waiting for the body threads; one more is 429 ACCOUNT_BUSY. */
  readonly bodyQueuePerAccount: number;
  /**
   * How far V8 lets the JavaScript heap grow past what a collection left live before it collects again, in
   * percent (`--heap-growing-percent`); 0 keeps V8's own rule. Applied by the processes that build
   * (`server/heap-growth.ts`).
   */
  readonly heapGrowthPercent: number;
  /** How often the request thread's event-loop delay while building is logged, in seconds (0: never). */
  readonly eventLoopReportSeconds: number;
  /** The static host whose files every build writes into the output folder and keeps (`server/hosting/host-files.ts`). */
  readonly staticHost: 'none' | 'netlify' | 'cloudflare';
  /** Prefix of every cache tag the service sends and purges (`serving/cache-tags.ts`). */
  readonly cacheTagPrefix: string;
  /** The CDNs each build is purged from (`server/edge/`); empty: none, and `published` means in the output folder. */
  readonly purgeTargets: readonly PurgeTarget[];
  /** The object storage bucket each build is deployed to (`server/edge/bucket/`); null: none. */
  readonly deployBucket: DeployBucket | null;
  /** Least severe log level printed. */
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

/** A CDN that each build purges by tag (docs/HOSTING.md, "CDN and object storage"). */
export type PurgeTarget =
  | { readonly kind: 'varnish'; readonly url: string }
  | { readonly kind: 'cloudflare'; readonly zone: string; readonly token: string; readonly api: string }
  | { readonly kind: 'fastly'; readonly service: string; readonly token: string; readonly api: string }
  | { readonly kind: 'cloudfront'; readonly distribution: string; readonly endpoint: string | null }
  | { readonly kind: 'webhook'; readonly url: string; readonly secret: string };

/** An S3-compatible bucket (AWS S3, Cloudflare R2, GCS interoperability, MinIO); credentials from the AWS SDK's chain. */
export interface DeployBucket {
  readonly bucket: string;
  /** Another S3 API than AWS's (R2, GCS, MinIO); null: AWS. */
  readonly endpoint: string | null;
  readonly region: string;
  /** Prepended to every key (`site/`), or empty. */
  readonly prefix: string;
  /** Path-style addresses (`{endpoint}/{bucket}/{key}`), which MinIO and most local servers need. */
  readonly pathStyle: boolean;
}

/** Raised when the environment holds an invalid setting; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee README.md, "Configuration".`);
    this.name = 'ConfigError';
  }
}

/**
 * Builds the configuration from an environment (normally `process.env`).
 * Relative paths are resolved against `cwd`.
 * @throws {ConfigError} naming every invalid variable.
 * @example const config = loadConfig(process.env, process.cwd());
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string): Config {
  // Empty strings count as unset, so `PORT= npm start` uses the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got "${cleaned[String(issue.path[0])]}")`),
    );
  }
  const e = parsed.data;
  if (e.PRESSROOM_STANDBY && !e.PRESSROOM_DATABASE_URL) {
    throw new ConfigError([
      'PRESSROOM_STANDBY: a standby waits to take over from a server on the same Postgres database; set PRESSROOM_DATABASE_URL too (the SQLite file is one machine\'s: run one server on it) (got "true")',
    ]);
  }
  if (e.PRESSROOM_ROLE === 'web' && !e.PRESSROOM_DATABASE_URL) {
    throw new ConfigError([
      'PRESSROOM_ROLE: a web instance answers beside a server on the same Postgres database; set PRESSROOM_DATABASE_URL too (the SQLite file is one machine\'s: run one server on it) (got "web")',
    ]);
  }
  if (e.PRESSROOM_ROLE === 'web' && e.PRESSROOM_STANDBY) {
    throw new ConfigError([
      'PRESSROOM_STANDBY: a web instance never holds the database, so it cannot stand by; start standbys with PRESSROOM_ROLE=server (got "true" with PRESSROOM_ROLE=web)',
    ]);
  }
  const purgeTargets = readPurgeTargets(e);
  const dataDir = path.resolve(cwd, e.PRESSROOM_DATA_DIR);
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const buildWorkers = e.PRESSROOM_BUILD_WORKERS ?? Math.max(1, os.availableParallelism());
  const publicUrl = (e.PRESSROOM_PUBLIC_URL ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${e.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseFile: path.join(dataDir, 'pressroom.db'),
    databaseUrl: e.PRESSROOM_DATABASE_URL ?? null,
    database: e.PRESSROOM_DATABASE_URL ?? path.join(dataDir, 'pressroom.db'),
    publicUrl,
    dashboardUrl: (e.PRESSROOM_DASHBOARD_URL ?? `${publicUrl}/dashboard`).replace(/\/+$/, ''),
    outputDir: path.resolve(cwd, e.PRESSROOM_OUTPUT_DIR),
    contentDir: path.resolve(cwd, e.PRESSROOM_CONTENT_DIR),
    maxBodyBytes: Math.round(e.PRESSROOM_MAX_BODY_MB * 1024 * 1024),
    maxImageBytes: Math.round(e.PRESSROOM_MAX_IMAGE_MB * 1024 * 1024),
    draftMediaMaxAgeMs: Math.round(e.PRESSROOM_DRAFT_MEDIA_MAX_AGE_HOURS * 3_600_000),
    importContent: e.PRESSROOM_IMPORT_CONTENT,
    logLevel: e.PRESSROOM_LOG_LEVEL,
    moderationFile: e.PRESSROOM_MODERATION_FILE ? path.resolve(cwd, e.PRESSROOM_MODERATION_FILE) : null,
    siteName: e.PRESSROOM_SITE_NAME,
    contentSignal: e.PRESSROOM_CONTENT_SIGNAL,
    staticBuild: e.PRESSROOM_STATIC_BUILD,
    socialCards: e.PRESSROOM_SOCIAL_CARDS,
    logRequests: e.PRESSROOM_LOG_REQUESTS,
    cardCacheDir: path.join(dataDir, 'cards'),
    answerCacheDir: path.join(dataDir, 'answers'),
    answerCacheBytes: e.PRESSROOM_ANSWER_CACHE_MB * 1024 * 1024,
    watchContent: e.PRESSROOM_WATCH_CONTENT,
    standby: e.PRESSROOM_STANDBY,
    role: e.PRESSROOM_ROLE,
    cacheMaxAgeSeconds: e.PRESSROOM_CACHE_MAX_AGE,
    rateLimitContent: e.PRESSROOM_RATE_LIMIT_CONTENT,
    rateLimitSearch: e.PRESSROOM_RATE_LIMIT_SEARCH,
    trustProxyHops: e.PRESSROOM_TRUST_PROXY_HOPS,
    buildWorkers,
    searchProcesses: e.PRESSROOM_SEARCH_PROCESSES ?? buildWorkers + 1,
    searchRestFactor: e.PRESSROOM_SEARCH_REST_FACTOR,
    // At least two, so one account's body never holds every thread (issue 40); at most four idle ones by default.
    bodyWorkers: e.PRESSROOM_BODY_WORKERS ?? Math.min(4, Math.max(2, os.availableParallelism())),
    bodyTimeLimitMs: e.PRESSROOM_BODY_TIME_LIMIT_MS,
    bodyQueuePerAccount: e.PRESSROOM_BODY_QUEUE_PER_ACCOUNT,
    heapGrowthPercent: e.PRESSROOM_HEAP_GROWTH_PERCENT,
    eventLoopReportSeconds: e.PRESSROOM_EVENT_LOOP_REPORT_SECONDS,
    staticHost: e.PRESSROOM_STATIC_HOST,
    cacheTagPrefix: e.PRESSROOM_CACHE_TAG_PREFIX,
    purgeTargets,
    deployBucket: e.PRESSROOM_DEPLOY_S3_BUCKET
      ? { bucket: e.PRESSROOM_DEPLOY_S3_BUCKET, endpoint: e.PRESSROOM_DEPLOY_S3_ENDPOINT?.replace(/\/+$/, '') ?? null, region: e.PRESSROOM_DEPLOY_S3_REGION, prefix: e.PRESSROOM_DEPLOY_S3_PREFIX, pathStyle: e.PRESSROOM_DEPLOY_S3_PATH_STYLE }
      : null,
  });
}

/** The purge targets the settings name; a half-configured one is an error that says what is missing. */
function readPurgeTargets(e: z.infer<typeof envSchema>): PurgeTarget[] {
  const problems: string[] = [];
  const targets: PurgeTarget[] = [];
  const pair = (a: string, aValue: string | undefined, b: string, bValue: string | undefined): boolean => {
    if ((aValue === undefined) === (bValue === undefined)) return aValue !== undefined;
    problems.push(`${aValue === undefined ? a : b}: must be set with ${aValue === undefined ? b : a}`);
    return false;
  };
  if (e.PRESSROOM_PURGE_VARNISH_URL) targets.push({ kind: 'varnish', url: e.PRESSROOM_PURGE_VARNISH_URL });
  if (pair('PRESSROOM_PURGE_CLOUDFLARE_ZONE', e.PRESSROOM_PURGE_CLOUDFLARE_ZONE, 'PRESSROOM_PURGE_CLOUDFLARE_TOKEN', e.PRESSROOM_PURGE_CLOUDFLARE_TOKEN)) {
    targets.push({ kind: 'cloudflare', zone: e.PRESSROOM_PURGE_CLOUDFLARE_ZONE!, token: e.PRESSROOM_PURGE_CLOUDFLARE_TOKEN!, api: e.PRESSROOM_PURGE_CLOUDFLARE_API.replace(/\/+$/, '') });
  }
  if (pair('PRESSROOM_PURGE_FASTLY_SERVICE', e.PRESSROOM_PURGE_FASTLY_SERVICE, 'PRESSROOM_PURGE_FASTLY_TOKEN', e.PRESSROOM_PURGE_FASTLY_TOKEN)) {
    targets.push({ kind: 'fastly', service: e.PRESSROOM_PURGE_FASTLY_SERVICE!, token: e.PRESSROOM_PURGE_FASTLY_TOKEN!, api: e.PRESSROOM_PURGE_FASTLY_API.replace(/\/+$/, '') });
  }
  if (e.PRESSROOM_PURGE_CLOUDFRONT_DISTRIBUTION) {
    targets.push({ kind: 'cloudfront', distribution: e.PRESSROOM_PURGE_CLOUDFRONT_DISTRIBUTION, endpoint: e.PRESSROOM_PURGE_CLOUDFRONT_ENDPOINT ?? null });
  }
  if (pair('PRESSROOM_PURGE_WEBHOOK_URL', e.PRESSROOM_PURGE_WEBHOOK_URL, 'PRESSROOM_PURGE_WEBHOOK_SECRET', e.PRESSROOM_PURGE_WEBHOOK_SECRET)) {
    targets.push({ kind: 'webhook', url: e.PRESSROOM_PURGE_WEBHOOK_URL!, secret: e.PRESSROOM_PURGE_WEBHOOK_SECRET! });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return targets;
}
