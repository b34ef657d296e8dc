/**
 * What the builder remembers of the channel and site files it rendered, so a
 * file whose inputs did not change is not rendered again.
 *
 * A planned file may name everything its render reads (`PlannedFile.inputs`).
 * Built models are never changed (a change makes new objects), so when every
 * input is the same object as at the file's last render, the bytes would be
 * the same too. Channels are read from the store at every build, so the memo
 * also keeps the previous object of a channel whose JSON did not change
 * (`sameChannel`), which is what makes a channel an unchanged input.
 * @module
 */
import type { PublicChannel } from '../../read-model/view-models.ts';
import type { PlannedFile } from './site-plan.ts';

/** The memo. */
export interface RenderMemo {
  /**
   * The hash of `file`'s last render when its inputs are the same values and
   * `recorded` (the manifest's hash of the file) is still that render's;
   * null when it must be rendered.
   */
  unchanged(file: PlannedFile, recorded: string | undefined): string | null;
  /** Remembers `file`'s render (forgets it when the file names no inputs). */
  remember(file: PlannedFile, hash: string): void;
  /** `fresh`, or the object last seen for the same channel when its JSON is the same. */
  sameChannel(fresh: PublicChannel): PublicChannel;
  /** Forgets everything (another process rebuilt the site). */
  clear(): void;
}

/** Creates an empty memo. */
export function createRenderMemo(): RenderMemo {
  const renders = new Map<string, { inputs: readonly unknown[]; hash: string }>();
  const channels = new Map<number, { json: string; channel: PublicChannel; copy: PublicChannel }>();
  return {
    unchanged(file, recorded) {
      const last = renders.get(file.path);
      if (!file.inputs || !last || last.hash !== recorded || !sameInputs(last.inputs, file.inputs)) return null;
      return last.hash;
    },
    remember(file, hash) {
      if (file.inputs) renders.set(file.path, { inputs: file.inputs, hash });
      else renders.delete(file.path);
    },
    sameChannel(fresh) {
      const known = channels.get(fresh.id);
      // The builder's object, or the copy last found equal to it: a build's heads share one object per channel,
      // and so do a worker batch's, so each is compared once rather than once per article (100,000 at scale).
      if (known?.channel === fresh || known?.copy === fresh) return known.channel;
      const json = JSON.stringify(fresh);
      if (known?.json === json) {
        known.copy = fresh;
        return known.channel;
      }
      channels.set(fresh.id, { json, channel: fresh, copy: fresh });
      return fresh;
    },
    clear() {
      renders.clear();
      channels.clear();
    },
  };
}

/** Whether two input lists hold identical values, in order. */
function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}
