/**
 * A real nginx (the Debian package) serving an output folder with the
 * generated configuration, on a free loopback port, for tests that compare
 * hosts. `NGINX_MISSING` says why it cannot run on this machine (null when
 * it can); under CI a missing nginx is a failure, never a skip.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderNginxConfig, renderStandaloneNginxConfig } from '../../server/hosting/nginx-config.ts';
import { freePort } from './free-port.ts';
import { stopChild } from './stop-child.ts';
import { waitUntilListening } from './wait-listening.ts';

/** Where Debian installs nginx. */
export const NGINX = '/usr/sbin/nginx';
/** Why nginx cannot run here, or null. */
export const NGINX_MISSING = fs.existsSync(NGINX) ? null : `${NGINX} is missing: apt-get install nginx (.ci/run installs it).`;

/** A running nginx. */
export interface NginxHost {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts nginx over `root` (absolute) with the generated configuration; rejects with nginx's own words when it will not start. */
export async function startNginx(root: string): Promise<NginxHost> {
  if (NGINX_MISSING) throw new Error(NGINX_MISSING);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-nginx-'));
  const port = await freePort();
  const file = (name: string) => path.join(dir, name);
  fs.writeFileSync(file('pressroom.conf'), renderNginxConfig({ root: path.resolve(root), listen: `127.0.0.1:${port}` }));
  fs.writeFileSync(file('nginx.conf'), renderStandaloneNginxConfig({ prefix: dir, include: file('pressroom.conf') }));
  let log = '';
  const child: ChildProcess = spawn(NGINX, ['-c', file('nginx.conf'), '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const stop = async () => {
    await stopChild(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  await waitUntilListening(child, port, { name: 'nginx', timeoutMs: 10_000, output: () => log, stop });
  return { url: `http://127.0.0.1:${port}`, stop };
}
