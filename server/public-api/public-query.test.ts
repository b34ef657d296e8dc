import { describe, expect, it } from 'vitest';
import { PressroomError } from '../domain/errors.ts';
import { isDefaultForm, parsePublicQuery, type PublicOperation } from './public-query.ts';

const parse = (operation: PublicOperation, query: string) => parsePublicQuery(operation, new URLSearchParams(query));

/** The field messages of a 422, or null when the query is accepted. */
function problems(operation: PublicOperation, query: string): Record<string, string> | null {
  try {
    parse(operation, query);
    return null;
  } catch (error) {
    if (!PressroomError.is(error) || error.code !== 'VALIDATION_FAILED') throw error;
    return (error.details as { fields: Record<string, string> }).fields;
  }
}

describe('parsePublicQuery', () => {
  it.each([
    ['listPublicArticles', '', {}],
    ['listPublicArticles', 'lang=ar&limit=1', { lang: 'ar', limit: 1 }],
    ['listPublicArticles', 'limit=50&cursor=abc', { limit: 50, cursor: 'abc' }],
    ['listPublicArticles', 'utm_source=x&lang=pt-BR', { lang: 'pt-BR' }],
    ['getPublicArticle', 'include=html', { include: 'html' }],
    ['getPublicChannel', `lang=${'x'.repeat(20)}`, { lang: 'x'.repeat(20) }],
    ['getPublicArticleMarkdown', 'lang=en&lang=ar', { lang: 'en' }],
    ['searchPublicArticles', 'q=%20static%20sites%20&channel=tech&language=en', { q: 'static sites', channel: 'tech', language: 'en' }],
    ['searchPublicArticles', `q=${'é'.repeat(160)}`, { q: 'é'.repeat(160) }],
  ] as const)('%s ?%s is accepted', (operation, query, expected) => {
    expect(parse(operation, query)).toEqual(expected);
  });

  it.each([
    ['listPublicArticles', 'limit=0', 'limit'],
    ['listPublicArticles', 'limit=51', 'limit'],
    ['listPublicArticles', 'limit=1.5', 'limit'],
    ['listPublicArticles', 'limit=', 'limit'],
    ['listPublicArticles', 'limit=1&limit=2', 'limit'],
    ['listPublicArticles', 'cursor=', 'cursor'],
    ['listPublicArticles', `lang=${'a'.repeat(17)}`, 'lang'],
    ['listPublicChannels', 'lang=e', 'lang'],
    ['getPublicArticle', 'include=text', 'include'],
    ['getPublicArticle', 'lang=en--x', 'lang'],
    ['searchPublicArticles', '', 'q'],
    ['searchPublicArticles', 'q=a', 'q'],
    ['searchPublicArticles', 'q=%20%20a%20%20', 'q'],
    ['searchPublicArticles', `q=${'a'.repeat(161)}`, 'q'],
    ['searchPublicArticles', 'q=ok&q=ok', 'q'],
    ['searchPublicArticles', 'q=ok&language=1', 'language'],
    ['searchPublicArticles', 'q=ok&channel=', 'channel'],
  ] as const)('%s ?%s is 422 naming %s, with a message that says what to send', (operation, query, field) => {
    const fields = problems(operation, query);
    expect(fields).not.toBeNull();
    expect(Object.keys(fields!)).toEqual([field]);
    expect(fields![field]!.length).toBeGreaterThan(15);
  });
});

describe('isDefaultForm', () => {
  it.each([
    [{}, true],
    [{ limit: 20 }, true],
    [{ limit: 10 }, false],
    [{ cursor: 'x' }, false],
    [{ include: 'html' }, false],
  ])('%j → %s', (query, expected) => {
    expect(isDefaultForm(query)).toBe(expected);
  });
});
