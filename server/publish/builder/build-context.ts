/**
 * What every part of a build shares: the builder's dependencies, its state,
 * where files go and the rendering fingerprint.
 * @module
 */
import type { Clock } from '../../clock.ts';
import type { CursorCodec } from '../../domain/cursor.ts';
import type { Logger } from '../../logger.ts';
import type { OutputQueue } from '../../output/output-queue.ts';
import type { PublicModel } from '../../read-model/public-model.ts';
import type { SiteInfo } from '../../read-model/view-models.ts';
import type { Renderers } from '../../render/renderers.ts';
import type { Db } from '../../store/database.ts';
import type { RenderPool } from '../workers/render-pool.ts';
import type { ArticleRenderContext } from './article-render.ts';
import type { BuilderState } from './builder-state.ts';
import type { OutputCheck } from './known-output.ts';
import type { PlannedFile } from './site-plan.ts';
import type { ReaderTurns } from './reader-turns.ts';

/** What the builder needs. */
export interface SiteBuilderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly model: PublicModel;
  readonly renderers: Renderers;
  readonly cursors: CursorCodec;
  readonly outputDir: string;
  readonly site: SiteInfo;
  readonly channelsUrl: string;
  readonly log: Logger;
  /** Files the site needs besides the rendered pages (the stylesheet under `_astro/`). */
  readonly assets?: () => Promise<readonly PlannedFile[]>;
  /**
   * Identifies the rendering code (`renderCodeFingerprint()` plus the Astro
   * build hash); part of every owner's input hash. Default: the sources' hash.
   */
  readonly renderFingerprint?: string;
  /**
   * Starts worker threads for a full build that must render at least
   * `poolMinArticles` articles; without it, every article renders here. If
   * the threads cannot start, or a batch fails in one, the build renders
   * in this thread instead, with a warning.
   */
  readonly renderPool?: () => Promise<RenderPool>;
  /** Articles to render from which `renderPool` is used (for fewer, threads cost more than they save). Default: `POOL_MIN_ARTICLES`. */
  readonly poolMinArticles?: number;
  /**
   * Compares the manifest with the output folder for a full build
   * (`checkOutput`) in a thread of its own, while the builder reads the
   * heads; without it, in this thread.
   */
  readonly checkOutput?: () => Promise<OutputCheck>;
  /** Recorded files from which `checkOutput` is used (for fewer, a thread costs more than it saves). Default: `CHECK_THREAD_MIN_FILES`. */
  readonly checkThreadMinFiles?: number;
  /**
   * Where the files this thread renders go (`output/output-queue.ts`).
   * Default: each is written at once, in this thread.
   */
  readonly output?: OutputQueue;
  /**
   * The edge (CDNs to purge) readers get the files through: each build's
   * news goes to its outbox and `kick()` wakes it (`settle.ts`). Without
   * it, a build's files are what readers get once they are in place.
   */
  readonly edge?: { kick(): void };
}

/** The shared context of one builder's builds. */
export interface BuildContext {
  readonly deps: SiteBuilderDeps;
  readonly state: BuilderState;
  readonly output: OutputQueue;
  /** Part of every article owner's input hash (`owner-inputs.ts`). */
  readonly fingerprint: string;
  /** How this thread renders article owners (`article-render.ts`). */
  readonly articles: ArticleRenderContext;
  /** Resolves once the owner-state table exists (`ensureBuildOwners`). */
  readonly ready: Promise<void>;
  /** Told the paths each build wrote or removed, once its files are in place (`SiteBuilder.onFilesPlaced`). */
  readonly placedListeners: Array<(paths: readonly string[]) => void | Promise<void>>;
  /** Asked between two files this thread renders, so readers' requests are answered meanwhile (`reader-turns.ts`). */
  readonly turns: ReaderTurns;
}
