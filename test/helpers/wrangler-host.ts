/**
 * Cloudflare Pages' own local emulator, `wrangler pages dev` (workerd),
 * serving an output folder with the generated `_worker.js`, on a free
 * loopback port. wrangler is a dev dependency pinned at 4.86.0, the last
 * release that runs on Node 20 (later ones refuse at start); its workerd
 * supports compatibility dates up to 2026-05-03, hence the fixed
 * `--compatibility-date`.
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderCloudflareWorker } from '../../server/hosting/cloudflare-config.ts';
import { freePort } from './free-port.ts';
import { stopChild } from './stop-child.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const WRANGLER = path.join(PROJECT_ROOT, 'node_modules/wrangler/bin/wrangler.js');
const COMPATIBILITY_DATE = '2026-04-01';

/** A running `wrangler pages dev`. */
export interface WranglerHost {
  readonly url: string;
  stop(): Promise<void>;
}

/** Writes `_worker.js` into `dist` and serves it; rejects with wrangler's own words when it will not start. */
export async function startWrangler(dist: string): Promise<WranglerHost> {
  if (!fs.existsSync(WRANGLER)) throw new Error(`${WRANGLER} is missing: run npm install (wrangler is a dev dependency).`);
  fs.writeFileSync(path.join(dist, '_worker.js'), await renderCloudflareWorker());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Its own home: wrangler writes logs and settings there, and must not read a developer's account.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-wrangler-'));
  const child = spawn(process.execPath, [WRANGLER, 'pages', 'dev', dist, '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', COMPATIBILITY_DATE, '--persist-to', path.join(home, 'state')], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    await stopChild(child);
    fs.rmSync(home, { recursive: true, force: true });
  };
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler exited with ${child.exitCode}:\n${log}`);
    }
    const status = await fetch(`${url}/`).then((r) => (void r.body?.cancel(), r.status)).catch(() => 0);
    if (status === 200) return { url, stop };
    if (Date.now() > until) {
      await stop();
      throw new Error(`wrangler pages dev did not answer within 90 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
