/**
 * The source editor's script (`source-editor.ts`: CodeMirror 6 over the
 * editor's body field, and autosave), bundled with esbuild into one file
 * the dashboard serves itself (never a CDN). Bundled on first use and kept
 * in memory, so the server starts as fast as before; the bundle is
 * deterministic (no paths, no time, no legal comments), so its hashed
 * address is the same on every start of the same code.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../../paths.ts';
import { dashboardAssetOnUse } from './dashboard-assets.ts';

/** Bundles the source editor's script. */
export async function bundleSourceEditor(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./source-editor.ts', import.meta.url))],
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    minify: true,
    legalComments: 'none',
    banner: { js: '/* Pressroom dashboard: the source editor. Includes CodeMirror 6 and Lezer (MIT licence, Marijn Haverbeke and others: https://codemirror.net). */' },
    sourcemap: false,
    charset: 'utf8',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The source editor script's address (bundled the first time it is asked for). */
export const sourceEditorScriptHref = dashboardAssetOnUse('source-editor', 'js', bundleSourceEditor);
