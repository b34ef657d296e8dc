/**
 * Worker threads that render article owners during a cold full build.
 * Rendering (Markdown, Astro, JSON, YAML) is CPU-bound and was one core's
 * work; each worker opens the store read-only, keeps its own warm Astro
 * renderer and runs `renderArticles`, the same function the builder runs
 * in its own thread, writing the files itself. The builder's thread only
 * hands out ids and keeps the manifest.
 * @module
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SiteInfo } from '../../read-model/view-models.ts';
import type { RenderedArticle } from '../builder/article-render.ts';

/** What each worker needs to build its own model and renderers. */
export interface RenderWorkerData {
  /** Where the data lives: a SQLite file or a Postgres URL (`Config.database`). */
  readonly database: string;
  readonly publicUrl: string;
  readonly dashboardUrl: string;
  readonly astroBuildDir: string;
  readonly outputDir: string;
  readonly site: SiteInfo;
  /** Where drawn preview cards are kept (`render/social-card.ts`); null: not kept. */
  readonly cardCacheDir?: string | null;
}

/** A pool of render workers. */
export interface RenderPool {
  /** Renders and writes the owners of `ids`; `known`: the manifest's hash by path; `fresh`: see `renderArticles`. */
  render(ids: readonly number[], known: Readonly<Record<string, string>>, fresh?: boolean): Promise<RenderedArticle[]>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * Workers to start: one per core the machine reports. On two cores the
 * builder's own thread mostly waits (store reads, manifest rows), so two
 * workers keep both cores busy.
 */
export function defaultWorkerCount(): number {
  return Math.max(1, os.availableParallelism());
}

type Reply = { id: number; results: RenderedArticle[] } | { id: number; error: string };

/** Starts `size` workers; resolves when every one is ready to render. */
export async function createRenderPool(data: RenderWorkerData, size = defaultWorkerCount()): Promise<RenderPool> {
  const waiting = new Map<number, { resolve: (r: RenderedArticle[]) => void; reject: (e: Error) => void }>();
  const queue: Array<{ id: number; ids: readonly number[]; known: Readonly<Record<string, string>>; fresh: boolean }> = [];
  const idle: Worker[] = [];
  let next = 0;
  let failure: Error | null = null;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) idle.pop()!.postMessage(queue.shift());
  };
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };

  const workers = await Promise.all(
    Array.from({ length: Math.max(1, size) }, async () => {
      // The workers run the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
      const worker = new Worker(new URL('../../worker-boot.mjs', import.meta.url), { workerData: { ...data, entry: new URL('./render-worker.ts', import.meta.url).href } });
      await new Promise<void>((resolve, reject) => {
        worker.once('message', (m: { ready?: boolean; error?: string }) => (m.ready ? resolve() : reject(new Error(m.error))));
        worker.once('error', reject);
      });
      worker.on('message', (reply: Reply) => {
        const w = waiting.get(reply.id);
        waiting.delete(reply.id);
        if ('error' in reply) w?.reject(new Error(`Render worker failed: ${reply.error}`));
        else w?.resolve(reply.results);
        idle.push(worker);
        dispatch();
      });
      worker.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
      idle.push(worker);
      return worker;
    }),
  );

  return {
    render(ids, known, fresh = false) {
      if (failure) return Promise.reject(failure);
      const id = ++next;
      return new Promise<RenderedArticle[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        queue.push({ id, ids, known, fresh });
        dispatch();
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
