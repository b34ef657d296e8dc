// @ts-check
/**
 * The Astro site that renders public pages. It is compiled once
 * (`npm run compile:astro`, server/render/astro-compile.ts) and never served by
 * Astro: the write service imports the compiled pages and renders them
 * in-process with the Container API (server/render/astro-renderer.ts),
 * writing static files. `output: 'server'` keeps every page a function of
 * its locals (nothing is prerendered at build time); the node adapter in
 * middleware mode only satisfies Astro's need for an adapter.
 */
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  outDir: '.pressroom/astro',
  // Quiet logs and no telemetry have no switch here: server/render/astro-compile.ts
  // builds with logLevel 'warn' and sets ASTRO_TELEMETRY_DISABLED (a plain
  // `npx astro build` also works; then set ASTRO_TELEMETRY_DISABLED=1 yourself).
  devToolbar: { enabled: false },
  build: {
    // Pages link their one stylesheet themselves (see src/layouts/Page.astro);
    // keep every asset a file under _astro/ for the static output to copy.
    inlineStylesheets: 'never',
  },
  vite: {
    build: { assetsInlineLimit: 0 },
  },
});
