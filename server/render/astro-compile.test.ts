import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_STAMP_FILE, computeSiteHash, ensureSiteBuild, readBuildStamp, SITE_SERVER_MODULES, siteBuildDir } from './astro-compile.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const temps: string[] = [];

afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tiny project: src/pages/article.astro and astro.config.mjs. */
function tempProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-site-'));
  temps.push(root);
  fs.mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'pages', 'article.astro'), '<p>one</p>\n');
  fs.writeFileSync(path.join(root, 'astro.config.mjs'), 'export default {};\n');
  return root;
}

/** Stands in for Astro: writes one compiled page and counts its calls. */
function fakeCompile(delayMs = 0) {
  const calls: string[] = [];
  const compile = async (_root: string, buildDir: string) => {
    calls.push(buildDir);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    fs.mkdirSync(path.join(buildDir, 'server', 'pages'), { recursive: true });
    fs.writeFileSync(path.join(buildDir, 'server', 'pages', 'article.astro.mjs'), 'export const page = () => ({});\n');
  };
  return { compile, calls };
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('computeSiteHash', () => {
  it('changes with src/, public/ and astro.config.mjs, and only with them', async () => {
    const root = tempProject();
    const first = await computeSiteHash(root);
    expect(await computeSiteHash(root)).toBe(first);

    fs.writeFileSync(path.join(root, 'README.md'), 'not part of the site');
    fs.mkdirSync(path.join(root, 'server'));
    fs.writeFileSync(path.join(root, 'server', 'x.ts'), 'export {}');
    expect(await computeSiteHash(root)).toBe(first);

    fs.writeFileSync(path.join(root, 'src', 'pages', 'article.astro'), '<p>two</p>\n');
    const second = await computeSiteHash(root);
    expect(second).not.toBe(first);

    fs.mkdirSync(path.join(root, 'src', 'styles'));
    fs.writeFileSync(path.join(root, 'src', 'styles', 'site.css'), 'body{}');
    const third = await computeSiteHash(root);
    expect(third).not.toBe(second);

    fs.mkdirSync(path.join(root, 'public'));
    fs.writeFileSync(path.join(root, 'public', 'favicon.svg'), '<svg/>');
    const fourth = await computeSiteHash(root);
    expect(fourth).not.toBe(third);

    fs.writeFileSync(path.join(root, 'astro.config.mjs'), 'export default { trailingSlash: "never" };\n');
    expect(await computeSiteHash(root)).not.toBe(fourth);
  });

  it('changes with the server modules the site bundles', async () => {
    const root = tempProject();
    const first = await computeSiteHash(root);
    for (const module of SITE_SERVER_MODULES) {
      fs.mkdirSync(path.dirname(path.join(root, module)), { recursive: true });
      fs.writeFileSync(path.join(root, module), `export const v = ${JSON.stringify(module)};\n`);
    }
    expect(await computeSiteHash(root)).not.toBe(first);
  });

  it('lists every server module src/ imports at run time, and the server modules those import', () => {
    const imported = new Set<string>();
    const scan = (file: string, pattern: RegExp) => {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(pattern)) {
        const target = path.relative(projectRoot, path.resolve(path.dirname(file), m[1]!)).split(path.sep).join('/');
        if (!target.startsWith('server/') || imported.has(target)) continue;
        imported.add(target);
        scan(path.join(projectRoot, target), /^import (?!type )[^;]*? from '(\.\.?\/[^']+)'/gm);
      }
    };
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.(ts|astro|mjs|js)$/.test(e.name)) scan(full, /^import (?!type )[^;]*? from '(\.\.\/[^']*server\/[^']+)'/gm);
      }
    };
    walk(path.join(projectRoot, 'src'));
    expect([...imported].sort()).toEqual([...SITE_SERVER_MODULES].sort());
  });

  it('does not depend on where the project lives', async () => {
    const a = tempProject();
    const b = tempProject();
    expect(await computeSiteHash(a)).toBe(await computeSiteHash(b));
  });
});

describe('ensureSiteBuild', () => {
  it('builds once, then skips until the sources change; --force rebuilds', async () => {
    const root = tempProject();
    const { compile, calls } = fakeCompile();
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);

    const first = await ensureSiteBuild(root, { compile, log });
    expect(first).toMatchObject({ buildDir: siteBuildDir(root), built: true });
    expect(first.buildDir).toBe(path.join(root, '.pressroom', 'astro'));
    expect(lines[0]).toBe('Compiling the site…');
    expect(lines[1]).toMatch(/^done in \d+\.\d s$/);
    expect(await readBuildStamp(first.buildDir)).toMatchObject({ hash: first.hash, format: 1 });

    lines.length = 0;
    expect(await ensureSiteBuild(root, { compile, log })).toMatchObject({ built: false, hash: first.hash });
    expect(lines).toEqual(['The site is up to date (.pressroom/astro).']);
    expect(calls).toHaveLength(1);

    fs.writeFileSync(path.join(root, 'src', 'pages', 'article.astro'), '<p>changed</p>\n');
    const changed = await ensureSiteBuild(root, { compile, log });
    expect(changed.built).toBe(true);
    expect(changed.hash).not.toBe(first.hash);

    expect((await ensureSiteBuild(root, { compile, force: true })).built).toBe(true);
    expect(calls).toHaveLength(3);
    expect(fs.existsSync(`${first.buildDir}.lock`)).toBe(false);
  });

  it('builds once when asked several times at once', async () => {
    const root = tempProject();
    const { compile, calls } = fakeCompile(150);
    const results = await Promise.all([1, 2, 3].map(() => ensureSiteBuild(root, { compile })));
    expect(calls).toHaveLength(1);
    expect(results.filter((r) => r.built)).toHaveLength(1);
  });

  it('takes over a lock whose owner process is gone', async () => {
    const root = tempProject();
    const lock = `${siteBuildDir(root)}.lock`;
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'owner'), String(deadPid()));
    const { compile } = fakeCompile();
    expect((await ensureSiteBuild(root, { compile })).built).toBe(true);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('waits for a live lock, and says so when it times out', async () => {
    const root = tempProject();
    const lock = `${siteBuildDir(root)}.lock`;
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'owner'), String(process.pid));
    const lines: string[] = [];
    const { compile, calls } = fakeCompile();
    await expect(ensureSiteBuild(root, { compile, lockTimeoutMs: 300, log: (l) => lines.push(l) })).rejects.toThrow(
      /Timed out waiting for another site build .*delete that folder/,
    );
    expect(lines).toEqual(['Waiting for another site build to finish…']);
    expect(calls).toHaveLength(0);
  });

  it('reports a failed build clearly and leaves no stamp', async () => {
    const root = tempProject();
    const failing = async () => {
      throw new Error('src/pages/article.astro: Unexpected "}"');
    };
    await expect(ensureSiteBuild(root, { compile: failing })).rejects.toThrow(
      'Compiling the site (src/, astro.config.mjs) failed: src/pages/article.astro: Unexpected "}"',
    );
    expect(fs.existsSync(path.join(siteBuildDir(root), BUILD_STAMP_FILE))).toBe(false);

    const empty = async (_root: string, dir: string) => void fs.mkdirSync(dir, { recursive: true });
    await expect(ensureSiteBuild(root, { compile: empty })).rejects.toThrow(/holds no compiled pages.*output: 'server'/);
    expect(await readBuildStamp(siteBuildDir(root))).toBeNull();
  });

  it('builds the real site, whose stamp matches the sources', { timeout: 180_000 }, async () => {
    const result = await ensureSiteBuild(projectRoot);
    expect(result.hash).toBe(await computeSiteHash(projectRoot));
    expect((await readBuildStamp(result.buildDir))?.hash).toBe(result.hash);
    for (const page of ['article', 'channel', 'home']) {
      expect(fs.existsSync(path.join(result.buildDir, 'server', 'pages', `${page}.astro.mjs`))).toBe(true);
    }
    // Building does not touch src/ (else every build would invalidate itself).
    expect((await ensureSiteBuild(projectRoot)).built).toBe(false);
  });
});
