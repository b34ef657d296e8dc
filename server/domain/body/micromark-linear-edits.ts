/**
 * micromark applies its event edits (`EditMap.consume`) by copying the
 * whole event list, every time: once per container whose flow it closes.
 * A body of many nested list items closes thousands, so parsing it was
 * quadratic (issue 40: 26 KB of nested list markers in 2.6 s, 51 KB in
 * 7.9 s, each inside every structural limit). This replaces `consume`
 * with the same edits made from the first edited index on: the same
 * events in the same order, in time proportional to what follows the first
 * edit (the edits micromark makes are near the end). Imported, for its
 * effect, by every module that parses Markdown; `body-growth.test.ts`
 * fails if the patch stops applying (a micromark upgrade that brings its
 * own copy of the edit map) and compares results with the original.
 * @module
 */
import { EditMap } from 'micromark-util-edit-map';

type Event = Parameters<EditMap['add']>[2][number];
type Edits = { map: Array<[number, number, Event[]]>; index: Map<number, unknown> };

/** The original, kept for the comparison test. */
export const originalConsume = EditMap.prototype.consume;

/** `EditMap.prototype.consume`, linear in the events from the first edit on. */
export function linearConsume(this: EditMap, events: Event[]): undefined {
  const edits = this as unknown as Edits;
  edits.map.sort((a, b) => a[0] - b[0]);
  if (edits.map.length === 0) return undefined;
  const start = edits.map[0]![0];
  const tail: Event[] = [];
  let at = start;
  for (const [index, remove, add] of edits.map) {
    for (let i = at; i < index; i++) tail.push(events[i]!);
    for (const event of add) tail.push(event);
    at = index + remove;
  }
  for (let i = at; i < events.length; i++) tail.push(events[i]!);
  events.length = start;
  for (const event of tail) events.push(event);
  edits.map.length = 0;
  edits.index.clear();
  return undefined;
}

EditMap.prototype.consume = linearConsume;

/** Whether the patch is in place (the edit map micromark uses is the one patched). */
export const LINEAR_EDITS = EditMap.prototype.consume === linearConsume;
