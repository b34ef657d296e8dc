/**
 * The layers of the service and which way imports may go, as
 * dependency-cruiser rules. The data flows
 *
 *   routes (http) → domain → store (+ outbox) → publish → render → dist/ → serving
 *
 * and the read API and the builder both depend on one read model, never on
 * each other. `layers.test.ts` cruises `server/`, `src/` and `scripts/` with
 * these rules in `npm test`; docs/ARCHITECTURE.md explains each layer.
 * @module
 */
import type { IForbiddenRuleType } from 'dependency-cruiser';

/** Every folder that lies above the read model and the renderers. */
const ABOVE_RENDER = 'server/(publish|http|public-api|hosting|jobs|admin|content|bodies|media|output)/|server/(main|app|bootstrap)\\.ts$';

/** The forbidden directions. Each rule says why in its comment. */
export const LAYER_RULES: IForbiddenRuleType[] = [
  {
    name: 'render-is-a-leaf',
    comment: 'Renderers are pure functions of the read model (view model → bytes): no builder, HTTP, store, adapters or entry points.',
    severity: 'error',
    from: { path: '^server/render/' },
    to: { path: `^(${ABOVE_RENDER}|server/store/)` },
  },
  {
    name: 'read-model-below-its-users',
    comment: 'The read model is what the renderers, the builder and the read API share; it depends on none of them.',
    severity: 'error',
    from: { path: '^server/read-model/' },
    to: { path: `^(server/render/|${ABOVE_RENDER})` },
  },
  {
    name: 'read-api-not-on-the-builder',
    comment: 'The read API depends on the read model (PublicState), never on the static builder.',
    severity: 'error',
    from: { path: '^server/public-api/' },
    to: { path: '^server/(publish|http|hosting)/' },
  },
  {
    name: 'builder-not-on-the-read-api',
    comment: 'The builder does not serve: it depends on neither the read API nor the HTTP edge.',
    severity: 'error',
    from: { path: '^server/publish/' },
    to: { path: '^server/(public-api|http)/' },
  },
  {
    name: 'builder-below-the-edges-along-any-path',
    comment: 'Not through a third module either: nothing the builder imports, however indirectly, reaches the HTTP edge, the host configurations or the read API. Host files are wired by the composition roots.',
    severity: 'error',
    from: { path: '^server/publish/' },
    to: { path: '^server/(http|hosting|public-api)/', reachable: true },
  },
  {
    name: 'serving-below-http-and-hosting',
    comment: 'The serving contract (address → file, types, cache, headers, error bodies) is what the bundled server and every host derive from; it depends on none of them, nor on the builder.',
    severity: 'error',
    from: { path: '^server/serving/' },
    to: { path: `^(server/(http|hosting|publish|public-api/(?!public-query\\.ts$)|jobs|admin|content|bodies|media|output)/|server/(main|app|bootstrap)\\.ts$)` },
  },
  {
    name: 'http-and-hosting-apart',
    comment: 'The bundled server and the host configurations are siblings: each derives from serving/, neither from the other.',
    severity: 'error',
    from: { path: '^server/(http|hosting)/' },
    to: { path: '^server/(http|hosting)/', pathNot: '^server/$1/' },
  },
  {
    name: 'store-below-domain',
    comment: 'Repositories take rows in and out; only the article status types are shared with the domain (and describe-error.ts and internal-error.ts, leaves every layer uses).',
    severity: 'error',
    from: { path: '^server/store/' },
    to: { path: '^server/(?!store/|domain/article/article-status\\.ts$|describe-error\\.ts$|internal-error\\.ts$)' },
  },
  {
    name: 'domain-without-adapters',
    comment: 'The domain uses sharp and the filesystem through its ports (domain/media/*-port.ts) and knows no HTTP, builder or renderer.',
    severity: 'error',
    from: { path: '^server/domain/' },
    to: { path: `^(server/render/|server/read-model/|${ABOVE_RENDER})` },
  },
  {
    name: 'domain-without-io-modules',
    comment: 'No HTTP or filesystem in the domain core: it reaches both through ports.',
    severity: 'error',
    from: { path: '^server/domain/' },
    to: { dependencyTypes: ['core'], path: '^(node:)?(fs|fs/promises|http|https|http2|net|child_process)$' },
  },
  {
    name: 'hono-only-at-the-edge',
    comment: 'Hono is the HTTP edge: only server/http/ and the wiring (app.ts, main.ts) import it.',
    severity: 'error',
    from: { path: '^server/', pathNot: '^server/(http/|app\\.ts$|main\\.ts$)' },
    to: { path: '(^|/)node_modules/(hono|@hono)/' },
  },
  {
    name: 'entry-points-on-top',
    comment: 'Nothing in server/ imports the runtime or the wiring except the runtimes themselves (the server, and the web instance it starts with PRESSROOM_ROLE=web); scripts and tests may.',
    severity: 'error',
    from: { path: '^server/', pathNot: '^server/(main|web-instance)\\.ts$' },
    to: { path: '^server/(main|app)\\.ts$' },
  },
  {
    name: 'site-reads-the-read-model',
    comment: 'The Astro pages (src/) read the view models and the selection rules, nothing else of the service.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^server/', pathNot: '^server/(read-model/|domain/language\\.ts$)' },
  },
  {
    name: 'one-way-to-announce',
    comment: 'Every write announces a public change through domain/public-change.ts; only it writes the outbox (the builder, the read-your-writes check and a web instance\'s wait for a write\'s build read it; the edge outbox marks events processed once the CDNs acknowledge them).',
    severity: 'error',
    from: { path: '^server/', pathNot: '^server/(domain/public-change\\.ts|domain/article/article\\.service\\.ts|publish/builder/|publish/build-thread\\.ts|store/edge-delivery\\.repository\\.ts|web-instance\\.ts)' },
    to: { path: '^server/store/publication-event\\.repository\\.ts$' },
  },
  {
    name: 'output-below-publish',
    comment: 'The output folder writer and queue are used by the builder, media and hosts; they depend on none of them.',
    severity: 'error',
    from: { path: '^server/output/' },
    to: { path: '^server/(?!output/|worker-boot\\.mjs$|describe-error\\.ts$|internal-error\\.ts$)' },
  },
];
