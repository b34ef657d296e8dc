/**
 * The dashboard over real HTTP, as the e2e tests use it: an account with a
 * password, signed in through the form (POST /dashboard/login with the
 * dashboard's Origin, the `__Host-` session cookie read from the answer),
 * and a sender of requests bound to that session; channels and articles
 * made through the publishing API for the tests' fixtures.
 * @module
 */
import { expect } from 'vitest';
import type { PlanId } from '../../server/domain/account/plans.ts';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { SESSION_COOKIE } from '../../server/http/dashboard/dashboard-session.ts';
import type { TestService } from './test-service.ts';

/** The password the dashboard tests give their accounts. */
export const PASSWORD = 'correct horse battery staple';

/** Creates `account` (if needed) with `plan` and `password`; returns a fresh API key for it. */
export async function accountWithPassword(t: TestService, account: string, plan: PlanId, password = PASSWORD): Promise<string> {
  const key = await t.key(account, plan);
  await setPassword({ db: t.service.db, clock: t.clock }, account, password);
  return key;
}

/**
 * Creates a channel in English titled `title` through POST /api/v1/channels (with `fields` added to the body);
 * expects a 201 and returns the channel as the API reports it.
 */
export async function createChannel(t: TestService, key: string, title: string, fields: Record<string, unknown> = {}): Promise<any> {
  const made = await t.request('POST', '/api/v1/channels', { key, body: { default_language: 'en', translations: [{ language: 'en', title }], ...fields } });
  expect(made.status, made.text).toBe(201);
  return made.json;
}

/** Creates an article in `channel` through POST /api/v1/channels/{channel}/pages; expects a 201 and returns the article as the API reports it. */
export async function createArticle(t: TestService, key: string, channel: string, body: Record<string, unknown>): Promise<any> {
  const created = await t.request('POST', `/api/v1/channels/${channel}/pages`, { key, body });
  expect(created.status, created.text).toBe(201);
  return created.json;
}

/** Signs `account` in through the dashboard's form (expecting its 303) and returns the session's cookie header, `name=token`. */
export async function sessionCookie(t: TestService, account: string, password = PASSWORD): Promise<string> {
  const login = await fetch(`${t.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account, password }).toString(),
  });
  expect(login.status).toBe(303);
  return `${SESSION_COOKIE}=${new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(login.headers.getSetCookie().join('\n'))![1]}`;
}

/** The dashboard's answer to one request (redirects are not followed). */
export interface DashboardAnswer {
  status: number;
  /** The Location header, for a redirect. */
  location: string | null;
  /** The Content-Type header ('' when there is none). */
  type: string;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is none. */
  json: any;
}

/**
 * Sends a request with the session: any method but GET with the dashboard's Origin, and a plain form
 * URL-encoded (a FormData is sent as multipart); `headers` go last, so they may replace the Origin.
 */
export type Send = (method: string, path: string, form?: Record<string, string> | FormData, headers?: Record<string, string>) => Promise<DashboardAnswer>;

/** Signs `account` in through the form and returns a sender of requests bound to its session. */
export async function signIn(t: TestService, account: string, password = PASSWORD): Promise<Send> {
  const cookie = await sessionCookie(t, account, password);
  return async (method, path, form, headers = {}) => {
    const multipart = form instanceof FormData;
    const res = await fetch(`${t.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie,
        ...(method === 'GET' ? {} : { origin: t.url, ...(multipart ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) }),
        ...headers,
      },
      body: multipart ? form : form ? new URLSearchParams(form).toString() : undefined,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type') ?? '', headers: res.headers, text, json };
  };
}

/** A sender that GETs `path`, or POSTs `form` to it when one is given. */
export type Visit = (path: string, form?: Record<string, string>) => Promise<DashboardAnswer>;

/** Signs `account` in through the form and returns a `Visit` bound to its session. */
export async function signInForVisits(t: TestService, account: string, password = PASSWORD): Promise<Visit> {
  const send = await signIn(t, account, password);
  return (path, form) => send(form ? 'POST' : 'GET', path, form);
}
