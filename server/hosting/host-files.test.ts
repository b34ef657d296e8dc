import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createHostFiles } from './host-files.ts';

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = "";
});

function outputWith(articles: readonly string[]): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-hostfiles-'));
  for (const slug of articles) {
    const base = path.join(dir, 'api/public/v1/channels/news/articles');
    fs.mkdirSync(path.join(base, slug, '_lang'), { recursive: true });
    fs.writeFileSync(path.join(base, `${slug}.md`), 'x');
    fs.writeFileSync(path.join(base, slug, '_lang', 'en.md'), 'x');
  }
  return dir;
}

describe('host files kept in the output (PRESSROOM_STATIC_HOST)', () => {
  it('is a setting with three values, none by default, and a message naming them', () => {
    expect(loadConfig({}, '/tmp').staticHost).toBe('none');
    expect(loadConfig({ PRESSROOM_STATIC_HOST: 'cloudflare' }, '/tmp').staticHost).toBe('cloudflare');
    expect(() => loadConfig({ PRESSROOM_STATIC_HOST: 'nginx' }, '/tmp')).toThrow(/none, netlify or cloudflare/);
  });

  it('netlify: writes the rules, rewrites them when an article comes or goes, and leaves them alone otherwise', async () => {
    const out = outputWith(['first']);
    const files = createHostFiles('netlify', out);
    await files.ensure();
    expect(fs.readFileSync(path.join(out, '_redirects'), 'utf8')).toContain('/articles/first.md  lang=:lang');
    const mtime = fs.statSync(path.join(out, '_redirects')).mtimeMs;
    await files.ensure();
    expect(fs.statSync(path.join(out, '_redirects')).mtimeMs).toBe(mtime);
    fs.writeFileSync(path.join(out, 'api/public/v1/channels/news/articles/second.md'), 'x');
    fs.mkdirSync(path.join(out, 'api/public/v1/channels/news/articles/second'));
    await files.afterBuild(['news/index.html']);
    expect(fs.readFileSync(path.join(out, '_redirects'), 'utf8')).not.toContain('second.md');
    await files.afterBuild(['api/public/v1/channels/news/articles/second.md']);
    expect(fs.readFileSync(path.join(out, '_redirects'), 'utf8')).toContain('/articles/second.md  lang=:lang');
    expect(fs.readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('cloudflare: writes _worker.js, and again when it is gone', async () => {
    const out = outputWith([]);
    const files = createHostFiles('cloudflare', out);
    await files.ensure();
    expect(fs.readFileSync(path.join(out, '_worker.js'), 'utf8')).toContain('export');
    fs.rmSync(path.join(out, '_worker.js'));
    await files.afterBuild([]);
    expect(fs.existsSync(path.join(out, '_worker.js'))).toBe(true);
  }, 30_000);

  it('none: writes nothing', async () => {
    const out = outputWith(['first']);
    await createHostFiles('none', out).ensure();
    expect(fs.readdirSync(out)).toEqual(['api']);
  });
});
