/**
 * The builder's book of list anchors (`read-model/list-pages.ts`): for each
 * list (a cursor scope), every position it has ever shown, in list order.
 * Each anchor has a cursor page of its own, so a position is recorded
 * (`list_anchors`) before any file names it, and never forgotten.
 * @module
 */
import { listOrderOf, sortedPositions, withItemAnchors, type ListPosition } from '../../read-model/list-pages.ts';
import { invariant } from '../../internal-error.ts';

/** One anchor found by a build, to record. */
export interface NewAnchor {
  readonly scope: string;
  readonly position: ListPosition;
}

/** The book. */
export class ListAnchorBook {
  #byScope: Map<string, readonly ListPosition[]> | null = null;
  #added: NewAnchor[] = [];

  /** Whether the recorded anchors were loaded (`load`) since the last `forget`. */
  get loaded(): boolean {
    return this.#byScope !== null;
  }

  /** Takes the recorded anchors (`readListAnchors`), in any order. */
  load(recorded: Iterable<readonly [string, readonly ListPosition[]]>): void {
    const byScope = new Map<string, readonly ListPosition[]>();
    for (const [scope, positions] of recorded) byScope.set(scope, Object.freeze(sortedPositions(positions, listOrderOf(scope))));
    this.#byScope = byScope;
  }

  /** Drops what was loaded (another process built the site); anchors found but not yet taken stay to be recorded. */
  forget(): void {
    this.#byScope = null;
  }

  /** Every list's anchors, by scope. @throws Error when not loaded. */
  all(): ReadonlyMap<string, readonly ListPosition[]> {
    return this.#loaded();
  }

  /**
   * The anchors of the list `scope` once every one of `items` (its items now)
   * is one: the array stays the same object while nothing is added, and a
   * new array (frozen) is made when something is. The new positions wait in
   * `takeAdded()`.
   */
  of<T>(scope: string, items: readonly T[], positionOf: (item: T) => ListPosition): readonly ListPosition[] {
    const byScope = this.#loaded();
    const merged = withItemAnchors(byScope.get(scope) ?? [], items, positionOf, listOrderOf(scope));
    if (merged.added.length > 0) {
      byScope.set(scope, Object.freeze(merged.anchors));
      for (const position of merged.added) this.#added.push({ scope, position });
    }
    return merged.anchors;
  }

  /** The anchors found since the last call, to record before any file names them. */
  takeAdded(): NewAnchor[] {
    const added = this.#added;
    this.#added = [];
    return added;
  }

  #loaded(): Map<string, readonly ListPosition[]> {
    invariant(this.#byScope, 'The list anchors are not loaded: call load() with the recorded anchors first.');
    return this.#byScope;
  }
}
