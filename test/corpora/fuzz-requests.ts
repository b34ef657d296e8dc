/**
 * The fuzz corpus: malformed and hostile requests against every route of the
 * publishing API and the public content API, generated deterministically
 * (a fixed seed) so a failure names the same request on every run.
 *
 * Families: JSON bodies with every field replaced by a wrong type, null,
 * array, object, huge or odd number, Unicode oddity or overlong string;
 * broken JSON and wrong content types; duplicate keys; query-string oddities;
 * bad auth headers; methods a route does not allow. Pathological bodies
 * (deep nesting, quadratic Markdown, over-size) belong to the body-budget
 * work of issue 18 and are not here.
 * @module
 */
import type { RawRequest } from '../helpers/raw-http.ts';

/** What the requests address: a channel and article that exist, a key that may write. */
export interface FuzzFixture {
  readonly key: string;
  readonly channel: string;
  readonly article: string;
  readonly articleId: number;
}

/** mulberry32: a small seeded PRNG, so the corpus is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A JSON value or a raw JSON token spliced into the text as is. */
type Value = { json: unknown } | { raw: string };

/** Replacement values for any field. */
const VALUES: ReadonlyArray<[string, Value]> = [
  ['null', { json: null }],
  ['true', { json: true }],
  ['zero', { json: 0 }],
  ['negative', { json: -1 }],
  ['float', { json: 1.5 }],
  ['max double', { json: 1.7976931348623157e308 }],
  ['overflowing number', { raw: '1e999' }],
  ['negative zero', { raw: '-0' }],
  ['30-digit integer', { raw: '123456789012345678901234567890' }],
  ['empty string', { json: '' }],
  ['spaces', { json: '   ' }],
  ['string 20000', { json: 'x'.repeat(20_000) }],
  ['NUL', { json: 'a\u0000b' }],
  ['lone surrogate', { raw: '"\\ud800x"' }],
  ['bidi override', { json: 'Invoice \u202egpj.exe' }],
  ['full-width', { json: 'ｆｕｌｌｗｉｄｔｈ' }],
  ['emoji with ZWJ', { json: '👩‍👩‍👧‍👦' }],
  ['combining marks', { json: 'e\u0301\u0302\u0303\u0304\u0305' }],
  ['BOM', { json: '\ufeffbom' }],
  ['empty array', { json: [] }],
  ['array of null', { json: [null] }],
  ['empty object', { json: {} }],
  ['operator object', { json: { $ne: 1 } }],
  ['path', { json: '../../etc/passwd' }],
  ['script', { json: '<script>alert(1)</script>' }],
  ['impossible date', { json: '2027-02-29T10:00:00Z' }],
  ['local date', { json: '2030-01-01T10:00:00' }],
  ['NaN text', { json: 'NaN' }],
  ['number as string', { json: '42' }],
];

/** A body with sentinel strings replaced by raw tokens. */
function render(body: unknown, raws: string[]): string {
  let text = JSON.stringify(body);
  raws.forEach((raw, i) => (text = text.replace(JSON.stringify(`__RAW_${i}__`), raw)));
  return text;
}

/** Every path to a leaf (and to each object/array) of a JSON value. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function withValue(body: unknown, at: Array<string | number>, value: Value, raws: string[]): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if ('raw' in value) {
    raws.push(value.raw);
    node[at[at.length - 1]!] = `__RAW_${raws.length - 1}__`;
  } else node[at[at.length - 1]!] = value.json;
  return copy;
}

/**
 * The corpus for one fixture: about 800 requests.
 * @param seed fixed by the test; change it only on purpose.
 */
export function fuzzRequests(f: FuzzFixture, seed = 18): RawRequest[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const auth = { authorization: `Bearer ${f.key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const api = '/api/v1';
  const pages = `${api}/channels/${f.channel}/pages`;
  const page = `${pages}/${f.article}`;

  // Valid bodies of every JSON route; drafts, so the ones that pass cost no moderation or build.
  const routes: Array<{ method: string; path: string; body: unknown }> = [
    { method: 'POST', path: `${api}/channels`, body: { slug: 'fuzzed-channel', default_language: 'en', status: 'hidden', homepage_enabled: true, watermark_enabled: false, translations: [{ language: 'en', title: 'Fuzz', description: 'D' }] } },
    { method: 'PATCH', path: `${api}/channels/${f.channel}`, body: { default_language: 'en', homepage_enabled: true, translations: [{ language: 'en', title: 'Fuzz', description: 'D' }] } },
    {
      method: 'POST',
      path: pages,
      body: {
        slug: 'fuzzed',
        default_language: 'en',
        status: 'draft',
        publish_translations: true,
        homepage_mode: 'inherit',
        author: { name: 'A' },
        translations: [{ language: 'en', title: 'T', excerpt: 'E', content_markdown: 'Body.', seo_title: 'S', seo_description: 'D', status: 'draft' }],
      },
    },
    { method: 'PUT', path: `${page}/translations/en`, body: { title: 'T', excerpt: 'E', content_markdown: 'Body.', seo_title: 'S', seo_description: 'D', status: 'draft' } },
    { method: 'PATCH', path: `${page}/status`, body: { status: 'draft', publish_translations: true, homepage_mode: 'inherit' } },
    { method: 'PATCH', path: `${page}/settings`, body: { homepage_mode: 'hide' } },
  ];

  const out: RawRequest[] = [];
  const add = (name: string, method: string, path: string, headers: Record<string, string | string[]> = {}, body?: string | Buffer) =>
    out.push({ name, method, path, headers, ...(body !== undefined && { body }) });

  // 1. Every field of every body, replaced by a sample of the values (about 560 requests).
  for (const route of routes) {
    for (const at of paths(route.body)) {
      const chosen = new Set<number>();
      while (chosen.size < Math.min(6, VALUES.length)) chosen.add(Math.floor(random() * VALUES.length));
      for (const i of chosen) {
        const [label, value] = VALUES[i]!;
        const raws: string[] = [];
        add(`${route.method} ${route.path} ${at.join('.')} = ${label}`, route.method, route.path, json, render(withValue(route.body, at, value, raws), raws));
      }
    }
    // The whole body replaced, and extra or hostile keys.
    for (const [label, text] of [
      ['null body', 'null'],
      ['array body', JSON.stringify([route.body])],
      ['string body', '"text"'],
      ['number body', '1e999'],
      ['empty object', '{}'],
      ['unknown key', JSON.stringify({ ...(route.body as object), unknown_field: 1 })],
      ['__proto__ key', render(route.body, []).replace(/^\{/, '{"__proto__":{"admin":true},')],
      ['constructor key', render(route.body, []).replace(/^\{/, '{"constructor":{"prototype":{"x":1}},')],
      ['duplicate keys', render(route.body, []).replace(/^\{/, '{"default_language":"xx","status":"published","homepage_mode":"bogus",')],
      ['broken JSON', render(route.body, []).slice(0, -3)],
      ['trailing comma', render(route.body, []).replace(/\}$/, ',}')],
      ['single quotes', render(route.body, []).replaceAll('"', "'")],
      ['comments', `/* c */ ${render(route.body, [])}`],
      ['two documents', `${render(route.body, [])}${render(route.body, [])}`],
      ['empty body', ''],
      ['whitespace body', ' \n\t '],
      ['NUL bytes', '\u0000\u0000'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]).toString('latin1')],
    ] as const) {
      const body = label === 'invalid UTF-8' ? Buffer.from(text, 'latin1') : text;
      add(`${route.method} ${route.path} ${label}`, route.method, route.path, json, body);
    }
    // Content types.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=utf-16', 'application/jsonx', 'application/xml', '', 'application/json, text/plain', 'APPLICATION/JSON']) {
      add(`${route.method} ${route.path} content-type "${type}"`, route.method, route.path, { ...auth, 'content-type': type }, render(route.body, []));
    }
    add(`${route.method} ${route.path} no content-type`, route.method, route.path, auth, render(route.body, []));
    add(`${route.method} ${route.path} UTF-16 body`, route.method, route.path, json, Buffer.from(render(route.body, []), 'utf16le'));
    // Auth.
    for (const [label, headers] of [
      ['no auth', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['bearer only', { authorization: 'Bearer' }],
      ['basic auth', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['wrong key', { authorization: 'Bearer pr_live_0000000000000000000000000000' }],
      ['overlong key', { authorization: `Bearer ${'k'.repeat(8_000)}` }],
      ['latin-1 key', { authorization: 'Bearer \u00e9\u00e8\u00ff' }],
      ['key with spaces', { authorization: `Bearer  ${f.key} x` }],
      ['lower-case scheme', { authorization: `bearer ${f.key}` }],
      ['X-API-Key empty', { 'x-api-key': '' }],
      ['X-API-Key twice', { 'x-api-key': [f.key, 'other'] }],
      ['both headers, one wrong', { authorization: 'Bearer wrong', 'x-api-key': f.key }],
    ] as Array<[string, Record<string, string | string[]>]>) {
      add(`${route.method} ${route.path} ${label}`, route.method, route.path, { 'content-type': 'application/json', ...headers }, render(route.body, []));
    }
  }

  // 2. Methods a route does not allow.
  const allPaths = [
    `${api}/channels`,
    `${api}/channels/${f.channel}`,
    pages,
    page,
    `${page}/translations/en`,
    `${page}/status`,
    `${page}/settings`,
    `${api}/channels/${f.channel}/media`,
    '/api/public/v1/channels',
    `/api/public/v1/channels/${f.channel}`,
    `/api/public/v1/channels/${f.channel}/articles`,
    `/api/public/v1/channels/${f.channel}/articles/${f.article}`,
    `/api/public/v1/channels/${f.channel}/articles/${f.article}.md`,
    '/api/public/v1/search?q=a',
  ];
  for (const path of allPaths) {
    for (const method of ['DELETE', 'PUT', 'PATCH', 'POST', 'OPTIONS', 'HEAD', 'GET', 'PROPFIND', 'FOO']) {
      add(`${method} ${path}`, method, path, json, method === 'GET' || method === 'HEAD' ? undefined : '{}');
    }
  }

  // 3. Query strings on every list and read.
  const queries = [
    'limit=', 'limit=0', 'limit=-1', 'limit=1e99', 'limit=0x10', 'limit=1.5', 'limit=NaN', 'limit=Infinity', 'limit=1&limit=2', 'limit[]=1', 'limit[a]=1',
    'cursor=', `cursor=${'a'.repeat(4_000)}`, 'cursor=..%2F..%2Fetc', 'cursor=%00', 'cursor=eyJpZCI6MX0', 'cursor=a&cursor=b',
    'status=', 'status=archived&status=draft', 'status=%00', 'status=moderation_review', 'status[]=draft',
    'lang=', 'lang=..', 'lang=en&lang=fr', 'lang=%E2%80%AE', `lang=${'e'.repeat(3_000)}`, 'lang=EN', 'lang=zz-ZZZZ',
    'q=', `q=${'q'.repeat(5_000)}`, 'q=%22', 'q=*', 'q=a%00b', 'q=NEAR(a', 'q=a&q=b', 'q=%F0%9F%92%A9', 'q="unterminated',
    'include=', 'include=bodies,bodies', 'include=%00', 'channel=', 'channel=../x', '%zz=1', 'a=%zz', '=', '&&&', '?', 'x'.repeat(6_000),
  ];
  const readable = [
    `${api}/channels`,
    pages,
    page,
    `${api}/channels/${f.channel}/pages/${f.articleId}`,
    '/api/public/v1/channels',
    `/api/public/v1/channels/${f.channel}`,
    `/api/public/v1/channels/${f.channel}/articles`,
    `/api/public/v1/channels/${f.channel}/articles/${f.article}`,
    '/api/public/v1/search',
  ];
  for (const query of queries) {
    const path = pick(readable);
    add(`GET ${path}?${query.slice(0, 60)}`, 'GET', `${path}?${query}`, auth);
  }
  for (const path of readable) for (const query of ['limit=1&limit=2', 'cursor=%00', 'lang=..']) add(`GET ${path}?${query}`, 'GET', `${path}?${query}`, auth);

  // 4. Path oddities on the API routes (the traversal corpus covers files).
  for (const ref of ['0', '-1', '1e3', '99999999999999999999', '%00', '%20', 'a%2Fb', '..', '.', '%2e%2e', 'null', 'undefined', '__proto__', 'constructor', encodeURIComponent('ＡＢＣ'), '%E2%80%AE', '%ff%fe', '%', 'x'.repeat(3_000)]) {
    add(`GET page ${ref.slice(0, 30)}`, 'GET', `${pages}/${ref}`, auth);
    add(`PUT translation of ${ref.slice(0, 30)}`, 'PUT', `${pages}/${ref}/translations/${ref}`, json, JSON.stringify({ title: 'T', content_markdown: 'B' }));
    add(`public article ${ref.slice(0, 30)}`, 'GET', `/api/public/v1/channels/${f.channel}/articles/${ref}`);
    add(`public channel ${ref.slice(0, 30)}`, 'GET', `/api/public/v1/channels/${ref}`);
  }

  // 5. Media uploads that are not images (bombs and odd sizes belong to the image work of issue 18).
  const media = `${api}/channels/${f.channel}/media`;
  const boundary = 'fuzzboundary';
  const part = (name: string, content: string, filename?: string, type = 'text/plain') =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`;
  for (const [label, body, type] of [
    ['no parts', `--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
    ['no boundary', part('file', 'x', 'a.png', 'image/png'), 'multipart/form-data'],
    ['text as png', `${part('file', 'not an image', 'a.png', 'image/png')}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
    ['traversal filename', `${part('file', 'GIF89a', '../../../etc/passwd', 'image/gif')}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
    ['alt only', `${part('alt', 'x'.repeat(5000))}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
    ['file twice', `${part('file', 'a', 'a.png', 'image/png')}${part('file', 'b', 'b.png', 'image/png')}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
    ['unterminated', part('file', 'x', 'a.png', 'image/png'), `multipart/form-data; boundary=${boundary}`],
    ['JSON', '{"file":"x"}', 'application/json'],
    ['bad focus', `${part('file', 'x', 'a.png', 'image/png')}${part('focus_x', 'NaN')}${part('page_slug', '../x')}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`],
  ] as const) {
    add(`media ${label}`, 'POST', media, { ...auth, 'content-type': type }, body);
  }
  return out;
}
