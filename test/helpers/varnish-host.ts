/**
 * A real Varnish (Debian's `varnish` with `varnish-modules` for xkey) in
 * front of a server, with the VCL `npm run host-config -- varnish`
 * generates, on a free loopback port: the CDN of the edge tests (issue 35).
 * `VARNISH_MISSING` says why it cannot run here (null when it can); under
 * CI a missing Varnish is a failure, never a skip.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderVarnishConfig } from '../../server/hosting/varnish-config.ts';
import { freePort } from './free-port.ts';
import { stopChild } from './stop-child.ts';
import { waitUntilListening } from './wait-listening.ts';

/** Where Debian installs varnishd and the xkey module. */
export const VARNISHD = '/usr/sbin/varnishd';
const XKEY = '/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so';

/** Why Varnish cannot run here, or null. */
export const VARNISH_MISSING = !fs.existsSync(VARNISHD)
  ? `${VARNISHD} is missing: apt-get install varnish varnish-modules (.ci/run installs them).`
  : !fs.existsSync(XKEY) && !fs.readdirSync('/usr/lib').some((d) => fs.existsSync(path.join('/usr/lib', d, 'varnish/vmods/libvmod_xkey.so')))
    ? 'the xkey module is missing: apt-get install varnish-modules (.ci/run installs it).'
    : null;

/** A running Varnish. */
export interface VarnishHost {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts Varnish in front of `backend` (`host:port`); rejects with Varnish's own words when it will not start. */
export async function startVarnish(backend: string): Promise<VarnishHost> {
  if (VARNISH_MISSING) throw new Error(VARNISH_MISSING);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-varnish-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const vcl = path.join(dir, 'pressroom.vcl');
  fs.writeFileSync(vcl, renderVarnishConfig({ backend }));
  let log = '';
  // -F: in the foreground, so stopping the child stops Varnish; -j none: no privilege separation (a test's own user).
  const child: ChildProcess = spawn(
    VARNISHD,
    ['-F', '-j', 'none', '-n', path.join(dir, 'work'), '-a', `127.0.0.1:${port}`, '-f', vcl, '-s', 'malloc,64m', '-T', 'none', '-p', 'default_grace=0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const stop = async () => {
    await stopChild(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // Compiling the VCL takes a C compiler run: seconds on a loaded machine.
  await waitUntilListening(child, port, { name: 'varnishd', timeoutMs: 60_000, output: () => log, stop });
  return { url: `http://127.0.0.1:${port}`, stop };
}
