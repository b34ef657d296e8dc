/**
 * Starts the real service for end-to-end tests: a migrated SQLite file in a
 * fresh temp dir, real HTTP on a free loopback port, a manual clock. In the
 * `postgres` test project (`PRESSROOM_TEST_STORE=postgres`,
 * vitest.config.ts) the data lives in a fresh database of a real Postgres
 * cluster instead (issue 38: the suites run against both stores).
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../../server/clock.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import type { PlanId } from '../../server/domain/account/plans.ts';
import { createLogger } from '../../server/logger.ts';
import { startService, type RunningService } from '../../server/main.ts';
import { sharedPostgres } from './postgres-cluster.ts';

const TEST_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The store the suites run against: `postgres` in the project of that name, else SQLite. */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.PRESSROOM_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** A running test service and helpers to call it. */
export interface TestService {
  readonly service: RunningService;
  readonly config: Config;
  readonly clock: ReturnType<typeof manualClock>;
  readonly dir: string;
  readonly url: string;
  /** Creates an account (if needed) and returns a fresh key for it. */
  key(account: string, plan?: PlanId): Promise<string>;
  /** Sends a request with a key; `body` objects are sent as JSON. */
  request(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  stop(): Promise<void>;
}

/**
 * Starts a service. Content import is off unless `env` turns it on; the job
 * worker is off unless `options.startWorker` is true.
 * @example const t = await startTestService(); const key = await t.key('ana');
 */
export async function startTestService(
  env: Record<string, string> = {},
  options: { startWorker?: boolean; syncSearchIndex?: boolean } = {},
): Promise<TestService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-test-'));
  const store = TEST_STORE === 'postgres' ? { PRESSROOM_DATABASE_URL: await (await sharedPostgres()).createDatabase() } : {};
  const config = loadConfig(
    {
      ...store,
      PORT: '0',
      HOST: '127.0.0.1',
      PRESSROOM_DATA_DIR: path.join(dir, 'data'),
      PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'),
      PRESSROOM_PUBLIC_URL: 'http://pressroom.test',
      PRESSROOM_IMPORT_CONTENT: 'false',
      PRESSROOM_LOG_LEVEL: 'silent',
      PRESSROOM_STATIC_BUILD: 'false',
      ...env,
    },
    dir,
  );
  const clock = manualClock('2026-11-22T12:00:00.000Z');
  // The worker stays off unless asked for: tests run jobs with service.worker.runDue() and move the clock.
  // PRESSROOM_TEST_LOG=info (or debug, warn, error) shows the service's log while a suite runs, to see why one fails.
  const log = createLogger(TEST_LOG_LEVELS.find((level) => level === process.env.PRESSROOM_TEST_LOG) ?? 'silent');
  const service = await startService(config, { clock, log, startWorker: options.startWorker ?? false, syncSearchIndex: options.syncSearchIndex });
  return {
    service,
    config,
    clock,
    dir,
    url: service.url,
    async key(account, plan = 'free') {
      return (await createApiKey({ db: service.db, clock }, { accountName: account, plan })).key;
    },
    async request(method, urlPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${service.url}${urlPath}`, { method, headers, body });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    },
    async stop() {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
