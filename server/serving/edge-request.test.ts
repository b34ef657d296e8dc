/**
 * The edge functions' one decision (`edge-request.ts`), table-tested: what
 * the Cloudflare worker and the CloudFront function answer before they look
 * for a file. The hosts themselves run in test/hosts/url-table.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT_PATTERN, HOST_ERRORS, VALID_LIMIT_PATTERN } from './host-errors.ts';
import { decideEdgeRequest, type EdgeDecision } from './edge-request.ts';

const constants = { errors: HOST_ERRORS, defaultLimit: DEFAULT_LIMIT_PATTERN, validLimit: VALID_LIMIT_PATTERN };
const L = '/api/public/v1/channels/tech/articles';

function decide(target: string, accept?: string): EdgeDecision {
  const [path, query = ''] = target.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  return decideEdgeRequest(path, { values: (name) => params.getAll(name) }, accept, constants);
}

const CASES: Array<[string, string | undefined, EdgeDecision]> = [
  [L, undefined, { kind: 'file', answer: { file: 'api/public/v1/channels/tech/articles.json', headers: {} }, list: null }],
  [`${L}?lang=ar`, undefined, { kind: 'file', answer: { file: 'api/public/v1/channels/tech/articles/_lang/ar.json', headers: {} }, list: null }],
  [`${L}?limit=20`, undefined, { kind: 'file', answer: { file: 'api/public/v1/channels/tech/articles.json', headers: {} }, list: null }],
  [`${L}?limit=5`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.limitNotOnHost }],
  [`${L}?limit=abc`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.invalidLimit }],
  [`${L}?cursor=`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.emptyCursor }],
  [`${L}?lang=ar&lang=en`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.repeated }],
  [`${L}?lang=not_a_code`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.notALanguage }],
  [`${L}?lang=abcdefghijklmnopq`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.langTooLong }],
  [`${L}?cursor=AAAAAAAAAAAAAAAAAAAAAA`, undefined, { kind: 'file', answer: { file: `${L.slice(1)}/_cursor/AAAAAAAAAAAAAAAAAAAAAA.json`, headers: {} }, list: `${L.slice(1)}.json` }],
  [`${L}?lang=ar&cursor=AAAAAAAAAAAAAAAAAAAAAA`, undefined, { kind: 'file', answer: { file: `${L.slice(1)}/_lang/ar/_cursor/AAAAAAAAAAAAAAAAAAAAAA.json`, headers: {} }, list: `${L.slice(1)}/_lang/ar.json` }],
  [`${L}?cursor=short`, undefined, { kind: 'no-page', list: `${L.slice(1)}.json` }],
  [`${L}/hello?include=html`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.includeNotOnHost }],
  [`${L}/hello?lang=ar&lang=en`, undefined, { kind: 'error', status: 422, body: HOST_ERRORS.repeatedOnArticle }],
  [`${L}/hello.md?lang=not_a_code`, undefined, { kind: 'not-found' }],
  ['/tech/%2e%2e/robots.txt', undefined, { kind: 'not-found' }],
  ['/404', undefined, { kind: 'not-found' }],
];

describe('decideEdgeRequest', () => {
  it.each(CASES)('%s (Accept %s)', (target, accept, expected) => {
    expect(decide(target, accept)).toEqual(expected);
  });

  it('answers an article page with its Markdown for agents, with the headers the server sends', () => {
    const page = decide('/tech/hello?lang=ar');
    expect(page.kind === 'file' && page.answer.file).toBe('tech/ar/hello.html');
    expect(page.kind === 'file' && page.answer.headers.Link).toContain('hello.md?lang=ar');
    const md = decide('/tech/hello', 'text/markdown');
    expect(md.kind === 'file' && md.answer.file).toBe('api/public/v1/channels/tech/articles/hello.md');
  });
});
