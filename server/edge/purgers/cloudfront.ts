/**
 * CloudFront: it has no cache tags, so a delivery is an invalidation by
 * path (`CreateInvalidation`, through the AWS SDK: credentials and region
 * from its standard chain), and acknowledged once CloudFront reports it
 * `Completed` (typically a minute or more: with CloudFront, `published`
 * waits that long).
 *
 * What each costs: CloudFront bills invalidation paths beyond the first
 * 1,000 a month, and a wildcard path counts as one. So a delivery names one
 * wildcard per channel it touched (`/{channel}/*` and
 * `/api/public/v1/channels/{channel}*`, which also cover every query form
 * and variant) and one path per site-wide file; everything is `/*`.
 * CloudFront allows at most 15 wildcard invalidations in progress: beyond
 * that it refuses, and the delivery retries.
 * @module
 */
import { channelOfFile } from '../../serving/cache-tags.ts';
import { EdgeFailure, type Purger } from '../purger.ts';

/** Paths in one invalidation (CloudFront's limit is 3,000; more is `/*`). */
const MAX_PATHS = 3_000;

/** How long to wait for `Completed` before the delivery counts as failed (it is retried). */
const COMPLETION_TIMEOUT_MS = 15 * 60_000;

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => (made ??= make());
}

/** The invalidation paths for a set of changed output files (sorted, without duplicates). */
export function invalidationPaths(files: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    const channel = channelOfFile(file);
    if (channel !== null) {
      paths.add(`/${channel}/*`);
      paths.add(`/api/public/v1/channels/${channel}*`);
      continue;
    }
    const address = siteAddress(file);
    if (address !== null) paths.add(address);
  }
  return paths.size > MAX_PATHS ? ['/*'] : [...paths].sort();
}

/** The address of a site-wide file, with a wildcard where query forms exist; null for files that are no address (404 pages). */
function siteAddress(file: string): string | null {
  if (file === '404.html' || file.startsWith('_404/')) return null;
  if (file === 'index.html') return '/';
  if (file.startsWith('api/public/v1/channels')) return '/api/public/v1/channels*';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  if (file.endsWith('.html')) return `/${file.slice(0, -'.html'.length)}`;
  if (file.startsWith('api/') && file.endsWith('.json')) return `/${file.slice(0, -'.json'.length)}`;
  return `/${file}`;
}

/** A CloudFront distribution. `endpoint`: another API address (tests). */
export function cloudfrontPurger(options: {
  distribution: string;
  endpoint: string | null;
  pollMs?: number;
  /** Fixed credentials (tests); by default the SDK's standard chain supplies them. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}): Purger {
  // The SDK is loaded only when CloudFront is configured: it is large, and it warns on Node 20 as it loads.
  const sdk = once(async () => {
    const { CloudFrontClient, CreateInvalidationCommand, GetInvalidationCommand } = await import('@aws-sdk/client-cloudfront');
    const client = new CloudFrontClient({
      // CloudFront's API is global (us-east-1).
      region: 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: 1,
    });
    return { client, CreateInvalidationCommand, GetInvalidationCommand };
  });
  const pollMs = options.pollMs ?? 5_000;
  return {
    name: 'cloudfront',
    async purge(request) {
      const items = request.everything ? ['/*'] : invalidationPaths(request.paths);
      if (items.length === 0) return 0;
      const { client, CreateInvalidationCommand, GetInvalidationCommand } = await sdk();
      let id: string;
      try {
        const created = await client.send(
          new CreateInvalidationCommand({
            DistributionId: options.distribution,
            // New for every attempt: CloudFront refuses a reused reference with other paths.
            InvalidationBatch: { CallerReference: `pressroom-${Date.now()}-${items.length}`, Paths: { Quantity: items.length, Items: items } },
          }),
        );
        id = created.Invalidation?.Id ?? '';
        if (created.Invalidation?.Status === 'Completed') return 1;
      } catch (error) {
        throw new EdgeFailure(`cloudfront: invalidation refused: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
      if (!id) throw new EdgeFailure('cloudfront: the invalidation answer named no invalidation');
      const deadline = Date.now() + COMPLETION_TIMEOUT_MS;
      let requests = 1;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        requests += 1;
        try {
          const got = await client.send(new GetInvalidationCommand({ DistributionId: options.distribution, Id: id }));
          if (got.Invalidation?.Status === 'Completed') return requests;
        } catch (error) {
          throw new EdgeFailure(`cloudfront: invalidation ${id} not readable: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (Date.now() > deadline) throw new EdgeFailure(`cloudfront: invalidation ${id} not completed after ${COMPLETION_TIMEOUT_MS / 60_000} minutes`);
      }
    },
  };
}
