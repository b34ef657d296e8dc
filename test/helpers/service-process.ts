/**
 * The real service as an operator runs it: `scripts/start.ts` in a process
 * of its own on a data folder, the project's npm scripts and Debian's
 * `sqlite3` beside it, and what the kernel says of the server's open files
 * (`/proc/<pid>/fd`, `/proc/<pid>/maps`). For the durability suite.
 * @module
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A server process started by {@link startServerProcess}. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, as an operator's Ctrl-C or systemd stop; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The environment of a service on `dir`: its data and output there, loopback, a free port. */
export function serviceEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PRESSROOM_DATA_DIR: path.join(dir, 'data'),
    PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'),
    PRESSROOM_LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Starts `scripts/start.ts` (what `npm start` runs) and resolves once it listens. */
export function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        resolve({
          child,
          pid: child.pid!,
          url,
          stderr: () => err,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`the service exited with ${code} before listening: ${err}`)));
  });
}

/** SIGKILL, as a crash or a lost machine; resolves once the process is gone (at once if it already is). */
export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A job worker started by {@link startWorkerProcess}. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
}

/** Starts `scripts/worker.ts` (what `npm run worker` runs) and resolves once it says it runs. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Pressroom worker running')) resolve({ child, stdout: () => out, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}: ${err}`)));
  });
}

/** A standby started by {@link startStandbyProcess}. */
export interface StandbyProcess {
  readonly child: ChildProcess;
  /** Resolves with its stderr once it says it waits for the server that holds the database. */
  readonly waiting: Promise<string>;
  /** Resolves with its URL once it took over and listens. */
  readonly listening: Promise<string>;
  /** SIGTERM; resolves once it exited. */
  stop(): Promise<void>;
}

/** Starts `scripts/start.ts` with `PRESSROOM_STANDBY=true`; both promises reject if it exits first. */
export function startStandbyProcess(env: NodeJS.ProcessEnv): StandbyProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], { cwd: root, env: { ...env, PRESSROOM_STANDBY: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the standby exited with ${code}: ${err}`))));
  exited.catch(() => undefined);
  const waiting = new Promise<string>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('standby: another server holds the database')) resolve(err);
    });
  });
  const listening = new Promise<string>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
  });
  return {
    child,
    waiting: Promise.race([waiting, exited]),
    listening: Promise.race([listening, exited]),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The outcome of a command. */
export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (never rejects on a non-zero exit). */
export function runCommand(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, [...args], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `npm run --silent SCRIPT -- ARGS`, as the README shows. */
export function npmRun(script: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runCommand('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], env);
}

/** Debian's `sqlite3` on the database, as an operator types it. */
export function sqlite3(databaseFile: string, args: readonly string[]): Promise<CommandResult> {
  return runCommand('sqlite3', [...args.slice(0, -1), databaseFile, args.at(-1)!]);
}

/** The files of `pid` under `dataDir` whose names are gone (`/proc/<pid>/fd` shows `(deleted)`). */
export function deletedHandles(pid: number, dataDir: string): string[] {
  const real = fs.realpathSync(dataDir);
  const found: string[] = [];
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target.startsWith(real) && target.endsWith(' (deleted)')) found.push(target);
  }
  return found;
}

/**
 * The SQLite libraries mapped into `pid`: better-sqlite3's add-on (12 builds
 * `build/Release/better_sqlite3.node`, 13 ships `prebuilds/<platform>.node`)
 * and any system `libsqlite3`.
 */
export function sqliteLibraries(pid: number): string[] {
  const maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  const paths = maps.split('\n').map((line) => (line.includes('/') ? line.slice(line.indexOf('/')) : ''));
  return [...new Set(paths.filter((p) => /\/better-sqlite3(-napi)?\/.*\.node$|\/libsqlite3\.so/.test(p)))];
}
