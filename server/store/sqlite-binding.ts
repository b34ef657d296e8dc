/**
 * The SQLite binding for the running Node version: the one module that loads
 * better-sqlite3.
 *
 * better-sqlite3 12 is built on Node's `ObjectWrap`, which on Node 24 aborts
 * the whole process when the garbage collector frees a statement while no
 * JavaScript context is entered (`Assertion failed: (env) != nullptr` in
 * `RemoveEnvironmentCleanupHook`; seen here in the render workers during a
 * build). better-sqlite3 13 is built on node-addon-api and does not, but it
 * supports Node 22 and later only (on Node 20 it crashes at once). So Node 22
 * and later load version 13, installed under the alias `better-sqlite3-napi`,
 * and Node 20 loads version 12. Both have the same API.
 * @module
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** Node's major version, from the running binary. */
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** The better-sqlite3 `Database` constructor. */
export const SQLite: typeof BetterSqlite3 = nodeMajor >= 22 ? require('better-sqlite3-napi') : require('better-sqlite3');
