import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientKey } from './rate-limit.ts';

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
    // Not an address: the client wrote it (a hop count set too high); it never becomes a key of its own.
    [2, 'anything-i-like-123, 203.0.113.9', 'unknown'],
    [1, '203.0.113.9:51234', '203.0.113.9'],
    [1, '[2001:DB8:0:1::7]:443', '2001:0db8:0000:0001::/64'],
    [1, '::ffff:203.0.113.9', '203.0.113.9'],
  ])('trusting %i hop(s) of %j gives %s', async (hops, forwarded, expected) => {
    expect(await addressOf(hops, forwarded)).toBe(expected);
  });
});

describe('clientKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['203.0.113.9:8080', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['[::ffff:203.0.113.9]:80', '203.0.113.9'],
    ['2001:db8::1', '2001:0db8:0000:0000::/64'],
    ['2001:DB8:0:0:ffff::2', '2001:0db8:0000:0000::/64'],
    ['2001:db8:0:0:1:2:3:4', '2001:0db8:0000:0000::/64'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['2001:db8:0:5::203.0.113.9', '2001:0db8:0000:0005::/64'],
  ])('%s is the key %s', (text, key) => {
    expect(clientKey(text)).toBe(key);
  });

  it.each(['', 'unknown', 'evil.example', '999.1.1.1', '1.2.3', '2001:db8::g', '<script>'])('%j is no address', (text) => {
    expect(clientKey(text)).toBeNull();
  });

  it('gives every address of one IPv6 /64 the same key, and other /64s other keys', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
  });
});
