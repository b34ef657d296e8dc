import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PressroomError } from '../../domain/errors.ts';
import { createLogger } from '../../logger.ts';
import { createErrorHandler } from '../on-error.ts';
import { openApiDocument } from '../routes/openapi-document.ts';
import { jsonAnswerHeaders } from './json-answers.ts';

const app = new Hono();
app.onError(createErrorHandler(createLogger('silent')));
app.use('*', jsonAnswerHeaders());
app.get('/ok', (c) => c.json({ ok: true }));
app.get('/missing', () => {
  throw new PressroomError('NOT_FOUND');
});
app.get('/kept', (c) => c.json({ error: 1 }, 503, { 'Cache-Control': 'max-age=5', 'Content-Type': 'application/problem+json; charset=utf-8' }));
app.get('/page', (c) => c.html('<p>x</p>', 404));
app.get('/openapi.json', openApiDocument(() => JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: '1' } }), 60));

describe('JSON answers (issue 34: errors and the OpenAPI document had no charset, Cache-Control or ETag)', () => {
  it('names the charset on every JSON answer, with nosniff', async () => {
    const res = await app.request('/ok');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('marks errors no-store, from the error handler too, and keeps a Cache-Control a route chose', async () => {
    const missing = await app.request('/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(await missing.json()).toMatchObject({ schema_version: '1.0', error: { code: 'NOT_FOUND' } });
    const kept = await app.request('/kept');
    expect(kept.headers.get('cache-control')).toBe('max-age=5');
    expect(kept.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('leaves other answers alone', async () => {
    const page = await app.request('/page');
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(page.headers.get('cache-control')).toBeNull();
  });

  it('serves an OpenAPI document with a strong ETag, Last-Modified, Cache-Control and 304s', async () => {
    const res = await app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(await res.json()).toEqual({ openapi: '3.1.0', info: { title: 'T', version: '1' } });
    const again = await app.request('/openapi.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });
});
