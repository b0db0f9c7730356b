import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/index.js';
import { startServer, type TestServer } from '../testing/harness.js';
import { dbOf } from '../testing/seed/index.js';
import { guestJoined, openWithHello } from './testing/hello-in-url.js';

/*
 * What a socket connect costs the database, from the upgrade to the end of its join. None when a join on
 * this node handed its session to the socket (decision 0138), one statement (its user) otherwise, as for a
 * reconnect or a socket on another node (decision 0230). The first socket of a room here starts it from
 * what the join read of the room (decision 0265), or reads the room once when nothing was left for it or
 * the room changed on this node since. Every statement the server runs is counted, on either lane.
 */

/** Records every statement the app's own database runs from now on (the object the repositories hold). */
function countStatements(db: Db): string[] {
  const statements: string[] = [];
  const record = (lane: Pick<Db, 'query' | 'transaction'>) => {
    const { query, transaction } = lane;
    Object.assign(lane, {
      query: (sql: string, params?: unknown[]) => {
        statements.push(sql);
        return query.call(lane, sql, params);
      },
      transaction: (fn: Parameters<Db['transaction']>[0]) => {
        statements.push('transaction');
        return transaction.call(lane, fn);
      },
    });
  };
  record(db);
  if (db.background !== db) record(db.background);
  return statements;
}

describe('a socket connect', () => {
  let server: TestServer;
  let statements: string[];

  beforeAll(async () => {
    server = await startServer();
    statements = countStatements(dbOf(server));
  });
  afterAll(() => server.close());

  /** Opens the session's socket with its hello and waits until the join has done all its work. */
  async function connect(sessionId: string, token: string, hello: object, room: string) {
    const client = await openWithHello(server, sessionId, token, hello);
    // handled after the join's last step (frames are handled in order): its answer closes the count
    client.send({ type: 'setLanguage', language: 'xx', room });
    await client.next((frame) => frame.type === 'error' && frame.code === 'unsupported_language');
    return client;
  }

  /** A room with a member connected on this node, and a second guest joined to it over HTTP. */
  async function openRoomAndGuest() {
    const host = await guestJoined(server);
    const hostClient = await connect(
      host.session.sessionId,
      host.login.token,
      host.hello,
      host.session.roomId,
    );
    return { ...(await guestJoined(server, host.session.roomId)), hostClient };
  }

  it('runs no statement when a join on this node handed it its session', async () => {
    const { login, session, hello, hostClient } = await openRoomAndGuest();
    statements.length = 0;
    const client = await connect(session.sessionId, login.token, hello, session.roomId);
    expect(statements).toEqual([]);
    client.close();
    hostClient.close();
  });

  it('runs no statement when a join on this node made the room', async () => {
    const { login, session, hello } = await guestJoined(server);
    statements.length = 0;
    const client = await connect(session.sessionId, login.token, hello, session.roomId);
    expect(statements).toEqual([]);
    client.close();
  });

  it('runs no statement when a join on this node read the room it is the first of here', async () => {
    const host = await guestJoined(server);
    const { login, session, hello } = await guestJoined(server, host.session.roomId);
    statements.length = 0;
    const client = await connect(session.sessionId, login.token, hello, session.roomId);
    expect(statements).toEqual([]);
    client.close();
  });

  it('reads the room again when it changed on this node after the join read it', async () => {
    const host = await guestJoined(server);
    const { login, session, hello } = await guestJoined(server, host.session.roomId);
    const { user } = host.login;
    await server.app.xtalkMessages.chat.post({
      roomId: session.roomId,
      userId: user.userId,
      username: user.username,
      displayUsername: user.username,
      language: 'en',
      text: 'said between the join and the socket',
    });
    statements.length = 0;
    const client = await connect(session.sessionId, login.token, hello, session.roomId);
    // the message's own work (its translation) may still be running: only the room's reads are counted
    const roomReads = statements.filter((sql) => /\bfrom rooms r\b[\s\S]*\bfrom messages\b/.test(sql));
    expect(roomReads).toHaveLength(1);
    const ready = await client.next((frame) => frame.type === 'system' && frame.message === 'READY');
    const replayed = client.framesBefore(ready);
    expect(replayed.map((frame) => frame.type === 'message' && frame.message)).toEqual([
      'said between the join and the socket',
    ]);
    client.close();
  });

  it('reads only its user when nothing was handed to it (a reconnect, another node)', async () => {
    const { login, session, hello, hostClient } = await openRoomAndGuest();
    const first = await connect(session.sessionId, login.token, hello, session.roomId);
    first.close();
    await first.closed();
    statements.length = 0;
    const again = await connect(session.sessionId, login.token, hello, session.roomId);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/\bfrom users\b/);
    again.close();
    hostClient.close();
  });
});
