import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './rate-limit.ts';

/** What `clientAddress` reads from a request with this X-Forwarded-For, trusting `hops` proxies. */
async function addressOf(hops: number, forwarded?: string): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, hops)));
  const res = await app.request('/', { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } });
  return res.text();
}

describe('clientAddress', () => {
  it.each([
    [0, '203.0.113.9', 'unknown'],
    [1, undefined, 'unknown'],
    [1, '203.0.113.9', '203.0.113.9'],
    [1, '198.51.100.1, 203.0.113.9', '203.0.113.9'],
    [2, '198.51.100.1, 203.0.113.9, 10.0.0.1', '203.0.113.9'],
    [3, '203.0.113.9, 10.0.0.1', '203.0.113.9'],
    [1, ' , ', 'unknown'],
  ])('trusting %i hop(s) of %j gives %s', async (hops, forwarded, expected) => {
    expect(await addressOf(hops, forwarded)).toBe(expected);
  });
});
