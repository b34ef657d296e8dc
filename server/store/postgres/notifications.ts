/**
 * `LISTEN` on a Postgres channel, on a connection of its own that comes
 * back after it is lost (once a second). Readers that must not miss news
 * also poll (`public-api/state-follower.ts`): a notification only makes
 * them look sooner.
 * @module
 */
import pg from 'pg';
import { instanceName } from './postgres-database.ts';

/** A running listener. */
export interface Listening {
  close(): Promise<void>;
}

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/** Calls `onNotify` at each notification on `channel` (and once after each reconnection, for what it missed). */
export function listenTo(url: string, channel: string, onNotify: () => void, onFailure: (error: unknown) => void): Listening {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (again: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: `${instanceName()} listen`, keepAlive: true });
    client = c;
    const lost = (error?: unknown) => {
      if (client !== c || closed) return;
      client = null;
      if (error) onFailure(error);
      void c.end().catch(() => undefined);
      retry = setTimeout(() => void connect(true), RECONNECT_MS);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (again) onNotify();
    } catch (error) {
      lost(error);
    }
  };
  void connect(false);
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
