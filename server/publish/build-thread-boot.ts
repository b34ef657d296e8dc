/**
 * Starts the build thread's process of loading its sources, before it is
 * told what to build (`build-thread.ts` sends that). Loading the builder's
 * ~1,000 modules takes a second or two; `npm start` starts the thread once
 * it has loaded the service's own modules, so the thread loads while the
 * service migrates, imports content/ and starts to listen. (Loading both at
 * once, on two cores, put the first answer a second later; files and search
 * do not need the thread.) Imports nothing but `node:worker_threads`, so it
 * costs the caller nothing to load.
 * @module
 */
import { Worker } from 'node:worker_threads';

/** A build thread loading its sources; what it said before anyone listened is kept for its taker. */
export interface BootingBuildThread {
  readonly worker: Worker;
  /** Messages, errors and the exit the thread sent before `take()`. */
  take(): { readonly messages: readonly unknown[]; readonly error: unknown; readonly exitCode: number | null };
}

/** Starts a build thread; it waits for its `init` message (`build-thread.ts`). */
export function bootBuildThread(): BootingBuildThread {
  // The thread runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
  const worker = new Worker(new URL('../worker-boot.mjs', import.meta.url), { workerData: { entry: new URL('./workers/build-worker.ts', import.meta.url).href } });
  const messages: unknown[] = [];
  let error: unknown = null;
  let exitCode: number | null = null;
  const onMessage = (message: unknown) => messages.push(message);
  const onError = (e: unknown) => (error = e);
  const onExit = (code: number) => (exitCode = code);
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  // Loading must not keep a process alive that ends before the service takes the thread.
  worker.unref();
  return {
    worker,
    take() {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      return { messages, error, exitCode };
    },
  };
}
