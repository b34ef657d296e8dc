/**
 * The Lambda@Edge function (viewer request, Node.js runtime) in front of an
 * S3 bucket the site is deployed to, bundled by `cloudfront-config.ts`. A
 * bucket answers keys, not Pressroom's addresses, and ignores a query
 * string: without this function `…/articles?lang=de` would be the default
 * language and `?cursor=` page 1, the worst kind of wrong answer. The
 * function decides with the Cloudflare worker's own code
 * (`edge-request.ts`): it answers the explicit errors itself (422 with the
 * API's bodies, a JSON 404 for what no file can hold) and otherwise rewrites
 * the request to the one key that answers it and drops the query string, so
 * CloudFront caches each file once and S3 never sees a parameter of its own
 * (`?versionId=` would read a withdrawn article's old version).
 *
 * Why Lambda@Edge and not a CloudFront Function: the shared mapping and its
 * exact `Accept` negotiation bundle to ~18 KB even lowered to the ES 5.1 of
 * CloudFront Functions' runtime, which allows 10 KB of code.
 * @module
 */
import { decideEdgeRequest, type EdgeConstants } from '../serving/edge-request.ts';
import { wantsNotFoundPage } from '../serving/not-found-page.ts';

/** Values fixed when the function is generated (`define`). */
declare const PRESSROOM: EdgeConstants & {
  readonly notFound: string;
  /** The deploy prefix of the bucket's keys (`PRESSROOM_DEPLOY_S3_PREFIX`). */
  readonly bucketPrefix: string;
  /** A key no deploy writes: a request rewritten to it gets S3's 404, and with it the distribution's 404 page. */
  readonly missingKey: string;
};

/** A header of a CloudFront event: its lower-case name maps to every field of that name. */
export type CfHeaders = Record<string, Array<{ key?: string; value: string }>>;

/** The request of a Lambda@Edge viewer-request event (`event.Records[0].cf.request`), as far as the function reads it. */
export interface CfRequest {
  clientIp?: string;
  method: string;
  /** The path as received, percent-encoded. */
  uri: string;
  /** The query string as received, without `?`. */
  querystring: string;
  headers: CfHeaders;
}

/** An answer the function gives itself. */
export interface CfResponse {
  status: string;
  statusDescription: string;
  headers: CfHeaders;
  body: string;
}

/** The viewer-request event. */
export interface CfEvent {
  Records: Array<{ cf: { request: CfRequest } }>;
}

function json(status: 404 | 422, body: string, vary: boolean): CfResponse {
  const headers: CfHeaders = {
    'content-type': [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
    'cache-control': [{ key: 'Cache-Control', value: 'no-store' }],
    'x-content-type-options': [{ key: 'X-Content-Type-Options', value: 'nosniff' }],
  };
  if (vary) headers.vary = [{ key: 'Vary', value: 'Accept' }];
  return { status: String(status), statusDescription: status === 404 ? 'Not Found' : 'Unprocessable Content', headers, body };
}

/** The key of an output file as a request path: each segment percent-encoded (S3 decodes it back to the key). */
function keyPath(file: string): string {
  return `/${`${PRESSROOM.bucketPrefix}${file}`.split('/').map(encodeURIComponent).join('/')}`;
}

/** The viewer-request handler: the rewritten request, or an answer. */
export async function handler(event: CfEvent): Promise<CfRequest | CfResponse> {
  const request = event.Records[0]!.cf.request;
  const params = new URLSearchParams(request.querystring);
  const accept = request.headers.accept?.map((h) => h.value).join(', ');
  const decision = decideEdgeRequest(request.uri, { values: (name) => params.getAll(name) }, accept, PRESSROOM);
  if (decision.kind === 'error') return json(decision.status, decision.body, false);
  // A cursor that can name no page: whether its list exists needs a look at the bucket; 422 says what to fix.
  if (decision.kind === 'no-page') return json(422, PRESSROOM.errors.invalidCursor, false);
  request.querystring = '';
  if (decision.kind === 'not-found') {
    // A browser gets the site's 404 page: the distribution's error response to S3's 404 for a key that never exists.
    if (!wantsNotFoundPage(request.uri, accept)) return json(404, PRESSROOM.notFound, true);
    request.uri = keyPath(PRESSROOM.missingKey);
    return request;
  }
  request.uri = keyPath(decision.answer.file);
  return request;
}
