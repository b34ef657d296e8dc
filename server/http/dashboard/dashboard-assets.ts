/**
 * The dashboard's own static files (style sheet, scripts): each served at an
 * address with its content hash in the name, so browsers keep it for good
 * and a new version is a new address. Screens name an asset by its `href`;
 * the `/dashboard/assets/:file` route answers from this registry alone.
 * Most are registered with their body at import time; one made by a build
 * (the source editor's bundle) is registered by name and made on first use,
 * by the first page that names it or the first request for its address.
 * @module
 */
import { createHash } from 'node:crypto';
import { DASHBOARD_PATH } from '../../urls/public-urls.ts';

/** One served asset. */
export interface DashboardAsset {
  readonly href: string;
  readonly type: string;
  readonly body: string;
}

type Extension = 'css' | 'js';

const assets = new Map<string, DashboardAsset>();
/** Assets made on first use, by name: what makes each. */
const madeOnUse = new Map<string, () => Promise<string>>();

/** Registers `body` under `{name}-{hash}.{extension}` and returns its address. */
export function dashboardAsset(name: string, extension: Extension, body: string): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const href = `${DASHBOARD_PATH}/assets/${name}-${hash}.${extension}`;
  const type = extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  assets.set(href, { href, type, body });
  return href;
}

/**
 * Registers an asset whose body `make` produces (a bundle): made once, on first use, and kept in memory.
 * `make` must be deterministic, so the address stays the same across restarts.
 * @returns what gives its address, making it the first time (a failure is not kept: the next call tries again).
 */
export function dashboardAssetOnUse(name: string, extension: Extension, make: () => Promise<string>): () => Promise<string> {
  let made: Promise<string> | undefined;
  const href = () =>
    (made ??= make()
      .then((body) => dashboardAsset(name, extension, body))
      .catch((error: unknown) => {
        made = undefined;
        throw error;
      }));
  madeOnUse.set(`${name}.${extension}`, href);
  return href;
}

/** The asset at `href`, or undefined; an asset made on use whose name the address carries is made first. */
export async function findDashboardAsset(href: string): Promise<DashboardAsset | undefined> {
  const found = assets.get(href);
  if (found) return found;
  const named = /\/([a-z-]+)-[0-9a-f]{12}\.(css|js)$/.exec(href);
  const make = named ? madeOnUse.get(`${named[1]}.${named[2]}`) : undefined;
  if (!make) return undefined;
  await make();
  return assets.get(href);
}
