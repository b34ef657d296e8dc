/**
 * Setup of every test file: the suites of the `postgres` project start their
 * services on a Postgres database of a cluster shared by the file
 * (`test/helpers/test-service.ts`), stopped after the file.
 * @module
 */
import { afterAll } from 'vitest';
import { stopSharedPostgres } from '../helpers/postgres-cluster.ts';

afterAll(stopSharedPostgres, 60_000);
