/**
 * The two servers the HTTP benchmark compares, each started as a process of
 * its own so its CPU time and memory can be read apart from the load
 * generator's and the benchmark's: the bundled server (`scripts/start.ts`,
 * what `npm start` runs) and nginx from Debian with the configuration
 * `npm run host-config -- nginx` generates, both serving the same `dist/`.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { renderNginxConfig, renderStandaloneNginxConfig } from '../../server/hosting/nginx-config.ts';

/** Where Debian's nginx package puts the binary. */
export const NGINX = '/usr/sbin/nginx';

/** A server under test. */
export interface Target {
  readonly name: 'server' | 'nginx';
  readonly base: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** A free loopback port (bound and released; nothing else on this machine races for it in practice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `url` answers 200, failing early when `child` exits. */
async function waitFor(url: string, child: ChildProcess, log: () => string, ms = 60_000, pollMs = 100): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}:\n${log()}`);
    const status = await fetch(url).then((r) => (void r.body?.cancel(), r.status)).catch(() => 0);
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${ms} ms (last: ${status}):\n${log()}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

function capture(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer) => (text = (text + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

/**
 * Starts the bundled server on `dataDir` / `outputDir` (already built) in a
 * child process. Its environment is only what it needs, so a developer's own
 * PRESSROOM_* settings cannot change the measurement. The read API's rate
 * limits are off (0): the benchmark is one client sending thousands of
 * requests a second.
 * @param readyPath an address that must answer 200 once the server is up.
 * @param pollMs how often it is asked (default 100 ms; the start benchmark asks every 10 ms).
 * @param timeoutMs how long it may take (default 60 s).
 */
export async function startBundledServer(options: {
  root: string;
  dataDir: string;
  outputDir: string;
  tmpDir: string;
  readyPath: string;
  pollMs?: number;
  timeoutMs?: number;
  /** More settings (the reads benchmark: the log level and the event-loop report). */
  env?: Record<string, string>;
  /** Every chunk the server writes to stdout or stderr. */
  onOutput?: (text: string) => void;
}): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(options.root, 'scripts/start.ts')], {
    cwd: options.root,
    env: {
      TMPDIR: options.tmpDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PRESSROOM_DATA_DIR: options.dataDir,
      PRESSROOM_OUTPUT_DIR: options.outputDir,
      PRESSROOM_PUBLIC_URL: 'http://bench.test',
      PRESSROOM_IMPORT_CONTENT: 'false',
      PRESSROOM_WATCH_CONTENT: 'false',
      PRESSROOM_LOG_LEVEL: 'warn',
      PRESSROOM_RATE_LIMIT_CONTENT: '0',
      PRESSROOM_RATE_LIMIT_SEARCH: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = capture(child);
  if (options.onOutput) for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => options.onOutput!(chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}${options.readyPath}`, child, log, options.timeoutMs ?? 60_000, options.pollMs);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { name: 'server', base, pid: child.pid!, stop: () => stopProcess(child) };
}

/**
 * Starts nginx on loopback serving `outputDir` with the generated
 * configuration, from a prefix folder of its own (pid, logs, temp paths), in
 * the foreground (`daemon off`) so it is this process's child. One worker
 * process, as the bundled server is one process: on a 2-core machine the
 * other core runs the load generator. Otherwise nginx's defaults as Debian
 * ships them (sendfile on); no access log on either side.
 * @param readyPath an address that must answer 200 once nginx is up.
 */
export async function startNginx(options: { outputDir: string; prefix: string; readyPath: string }): Promise<Target> {
  const port = await freePort();
  const file = (name: string) => path.join(options.prefix, name);
  fs.mkdirSync(options.prefix, { recursive: true });
  fs.writeFileSync(file('pressroom.conf'), renderNginxConfig({ root: path.resolve(options.outputDir), listen: `127.0.0.1:${port}` }));
  fs.writeFileSync(file('nginx.conf'), renderStandaloneNginxConfig({ prefix: options.prefix, include: file('pressroom.conf') }));
  const child = spawn(NGINX, ['-c', file('nginx.conf'), '-p', options.prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = capture(child);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}${options.readyPath}`, child, () => `${log()}${fs.existsSync(file('error.log')) ? fs.readFileSync(file('error.log'), 'utf8') : ''}`, 15_000);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { name: 'nginx', base, pid: child.pid!, stop: () => stopProcess(child) };
}
