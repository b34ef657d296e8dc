/**
 * The shapes of body that were quadratic (issue 40): many nested list
 * items (micromark copied its whole event list each time it closed one)
 * and many headings. Time is the benchmark's (`npm run bench -- --only
 * bodies`); here the work is counted, which no machine's load changes: the
 * events micromark's edit map moves must grow in proportion to the body.
 */
import { EditMap } from 'micromark-util-edit-map';
import { afterEach, describe, expect, it } from 'vitest';
import { LINEAR_EDITS, linearConsume, originalConsume } from './micromark-linear-edits.ts';
import { processBody } from './process.ts';
import { GROWTH_SHAPES } from '../../../test/support/burst-inputs.ts';

let moved = 0;
/** `consume` as patched, counting the events it moves. */
function countingConsume(this: EditMap, events: Parameters<typeof linearConsume>[0]): undefined {
  const before = events.length;
  const first = (this as unknown as { map: Array<[number]> }).map.reduce((min, [at]) => Math.min(min, at), before);
  moved += before - first;
  return linearConsume.call(this, events);
}

afterEach(() => {
  EditMap.prototype.consume = linearConsume;
});

function movedFor(markdown: string): number {
  moved = 0;
  EditMap.prototype.consume = countingConsume;
  processBody({ title: 'Growth', contentMarkdown: markdown });
  EditMap.prototype.consume = linearConsume;
  return moved;
}

describe('micromark in linear time', () => {
  it('is patched in the edit map micromark uses', () => {
    expect(LINEAR_EDITS).toBe(true);
  });

  it.each(Object.entries(GROWTH_SHAPES))('%s: twice the body moves at most 2.5 times the events', (_name, shape) => {
    const once = movedFor(shape(300));
    const twice = movedFor(shape(600));
    expect(twice).toBeLessThanOrEqual(2.5 * Math.max(once, 1));
  });

  it('makes the same events as the original edit map', () => {
    const body = (GROWTH_SHAPES['mixed nested lists']!(40) + GROWTH_SHAPES['one-line headings']!(20) + '> - a\n>   > b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n').repeat(3);
    const patched = processBody({ title: 'Same', contentMarkdown: body });
    EditMap.prototype.consume = originalConsume;
    const original = processBody({ title: 'Same', contentMarkdown: body });
    expect(patched).toEqual(original);
  });
});
