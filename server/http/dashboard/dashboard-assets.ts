/**
 * The dashboard's own static files (style sheet, scripts): each served at an
 * address with its content hash in the name, so browsers keep it for good
 * and a new version is a new address. Screens name an asset by its `href`;
 * the `/dashboard/assets/:file` route answers from this registry alone.
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

const assets = new Map<string, DashboardAsset>();

/** Registers `body` under `{name}-{hash}.{extension}` and returns its address. */
export function dashboardAsset(name: string, extension: 'css' | 'js', body: string): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const href = `${DASHBOARD_PATH}/assets/${name}-${hash}.${extension}`;
  const type = extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  assets.set(href, { href, type, body });
  return href;
}

/** The asset at `href`, or undefined. */
export function findDashboardAsset(href: string): DashboardAsset | undefined {
  return assets.get(href);
}
