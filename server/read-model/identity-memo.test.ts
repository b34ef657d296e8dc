import { describe, expect, it } from 'vitest';
import { deepFreeze, forgetOneBuildMemos, freezeModel, memoByIdentity, memoForOneBuild, modelsFrozen } from './identity-memo.ts';

describe('memoByIdentity', () => {
  it('computes once per object and again for a new object with equal contents', () => {
    let calls = 0;
    const length = memoByIdentity((items: readonly number[]) => {
      calls++;
      return items.length;
    });
    const items = [1, 2, 3];
    expect(length(items)).toBe(3);
    expect(length(items)).toBe(3);
    expect(calls).toBe(1);
    expect(length([1, 2, 3])).toBe(3);
    expect(calls).toBe(2);
  });

  it('keeps what it remembers when a full build forgets its own pieces; memoForOneBuild forgets them', () => {
    const calls = { kept: 0, oneBuild: 0 };
    const kept = memoByIdentity((items: readonly number[]) => ++calls.kept && items.length);
    const oneBuild = memoForOneBuild((items: readonly number[]) => ++calls.oneBuild && items.length);
    const items = [1, 2];
    kept(items);
    oneBuild(items);
    oneBuild(items);
    forgetOneBuildMemos();
    expect([kept(items), oneBuild(items)]).toEqual([2, 2]);
    expect(calls).toEqual({ kept: 1, oneBuild: 2 });
  });

  it('remembers undefined and null answers too', () => {
    let calls = 0;
    const nothing = memoByIdentity((_key: object) => {
      calls++;
      return undefined;
    });
    const key = {};
    nothing(key);
    nothing(key);
    expect(calls).toBe(1);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays and returns the value', () => {
    const shared = { name: 'channel' };
    const value = { list: [{ a: 1 }, { b: [2] }], shared, again: shared };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(Object.isFrozen(value.list[1]!.b)).toBe(true);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(() => {
      (value.list as unknown[]).push(3);
    }).toThrow(TypeError);
  });

  it('leaves primitives and null as they are', () => {
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('text')).toBe('text');
  });
});

describe('freezeModel', () => {
  it('freezes under test (test/setup/freeze-models.ts turns it on for every suite)', () => {
    expect(modelsFrozen()).toBe(true);
    expect(Object.isFrozen(freezeModel({ a: [1] }).a)).toBe(true);
  });
});
