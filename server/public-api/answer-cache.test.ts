import { describe, expect, it } from 'vitest';
import { createAnswerCache } from './answer-cache.ts';

const answer = (body: string) => ({ body, lastModified: null });

describe('answer cache', () => {
  it('serves an answer only while every source it was drawn from is the current one', () => {
    const cache = createAnswerCache(1_000);
    const channel = {};
    const articles = [{}];
    cache.set('/a?limit=7', [channel, articles], answer('seven'), () => null);
    expect(cache.get('/a?limit=7', [channel, articles])?.body).toBe('seven');
    // The builder replaced the channel's array: the answer is not served, and dropped.
    expect(cache.get('/a?limit=7', [channel, [{}]])).toBeUndefined();
    expect(cache.get('/a?limit=7', [channel, articles])).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('holds at most its budget, dropping the least recently used first', () => {
    const cache = createAnswerCache(100);
    const s = [{}];
    cache.set('a', s, answer('x'.repeat(20)), () => s);
    cache.set('b', s, answer('x'.repeat(20)), () => s);
    cache.set('c', s, answer('x'.repeat(20)), () => s);
    cache.set('d', s, answer('x'.repeat(20)), () => s);
    expect(cache.get('a', s)).toBeDefined(); // a is now the most recently used
    cache.set('e', s, answer('x'.repeat(25)), () => s);
    expect(cache.size()).toBeLessThanOrEqual(100);
    expect(cache.get('b', s)).toBeUndefined();
    expect(cache.get('a', s)).toBeDefined();
    expect(cache.get('e', s)).toBeDefined();
    // An answer larger than a quarter of the budget is never kept.
    cache.set('big', s, answer('x'.repeat(26)), () => s);
    expect(cache.get('big', s)).toBeUndefined();
  });
});

it('finds its sources again in a newer state, for the fast path', () => {
  const cache = createAnswerCache(1_000);
  const article = {};
  const state = { article };
  cache.set('/x?include=html', [article], answer('html'), (st) => ((st as unknown as typeof state).article ? [(st as unknown as typeof state).article] : null));
  expect(cache.current('/x?include=html', state as never)?.body).toBe('html');
  // A new version of the article: another object.
  expect(cache.current('/x?include=html', { article: {} } as never)).toBeUndefined();
  cache.set('/y', [article], answer('y'), () => null);
  // Gone from the state.
  expect(cache.current('/y', state as never)).toBeUndefined();
});
