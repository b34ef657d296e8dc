/**
 * Keeps the layers in order (`layer-rules.ts`): no import from a lower
 * layer to a higher one, checked with dependency-cruiser over the real
 * sources.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { LAYER_RULES } from './layer-rules.ts';

let result: ICruiseResult;

beforeAll(async () => {
  const previous = process.cwd();
  process.chdir(PROJECT_ROOT);
  try {
    const tsConfig = extractTSConfig(path.join(PROJECT_ROOT, 'tsconfig.json'));
    const output = await cruise(
      ['server', 'src', 'scripts'],
      {
        ruleSet: { forbidden: LAYER_RULES },
        validate: true,
        tsPreCompilationDeps: true,
        exclude: { path: '\\.test\\.ts$|(^|/)node_modules/' },
        doNotFollow: { path: '(^|/)node_modules/' },
        tsConfig: { fileName: 'tsconfig.json' },
      },
      {},
      { tsConfig },
    );
    result = output.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}, 120_000);

describe('layers', () => {
  it('reads the whole tree (a broken resolver would pass every rule)', () => {
    const sources = result.modules.filter((m) => /^(server|src|scripts)\//.test(m.source));
    expect(sources.length).toBeGreaterThan(250);
    const unresolved = result.modules.flatMap((m) => m.dependencies.filter((d) => d.couldNotResolve && d.module.startsWith('.')).map((d) => `${m.source} → ${d.module}`));
    expect(unresolved).toEqual([]);
    // The rules must see through to the real targets: a route reaches the domain, the builder the renderers.
    const edges = new Set(result.modules.flatMap((m) => m.dependencies.map((d) => `${m.source} → ${d.resolved}`)));
    expect(edges.has('server/publish/builder/site-plan.ts → server/read-model/list-pages.ts')).toBe(true);
  });

  it('has no import from a lower layer to a higher one', () => {
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
  });
});

describe('queries', () => {
  it('live in store/ repositories only (plus migrations there)', () => {
    const outside: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) {
          if (rel !== 'server/store') walk(rel);
        } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
          const text = fs.readFileSync(path.join(PROJECT_ROOT, rel), 'utf8');
          if (/\.(selectFrom|updateTable|insertInto|deleteFrom|replaceInto)\(|\bsql`/.test(text)) outside.push(rel);
        }
      }
    };
    walk('server');
    walk('scripts');
    expect(outside).toEqual([]);
  });
});

describe('errors', () => {
  it('become HTTP answers in one place: routes throw PressroomError, on-error.ts answers', () => {
    const dir = path.join(PROJECT_ROOT, 'server/http/routes');
    const answering = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /\berrorBody\(/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(answering).toEqual([]);
  });
});
