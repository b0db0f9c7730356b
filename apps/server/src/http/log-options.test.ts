import type { MessageFrame } from '@xtalk/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../accounts/index.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { fixture } from '../voice/testing/clips.js';
import { loggableUrl } from './log-options.js';

/*
 * The server's own log, captured line by line from its pino stream while real requests and a real socket
 * go through it: every line is JSON, says which request it is about (and the room and user where known),
 * and holds none of the secrets those requests carried.
 */

type Line = Record<string, unknown> & { msg?: string };

describe('the server log', () => {
  const raw: string[] = [];
  const lines = () => raw.map((line) => JSON.parse(line) as Line);
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      { AI_PROVIDER: 'fake' },
      { logger: { level: 'debug', stream: { write: (line: string) => void raw.push(line) } } },
    );
  });
  afterAll(() => server.close());

  it('has reqId, room and user on the lines of a request and a socket, and none of their secrets', async () => {
    const guest = await guestLogin(server.app);
    const joined = await joinRoom(server.app, guest.token, null);
    // a mail link and an OAuth callback, as a browser opens them (the web root answers 404 here)
    await server.app.inject({ url: `/verify-email?token=mail-link-secret&r=${joined.roomId}` });
    await server.app.inject({ url: '/auth/google/callback?code=oauth-code-secret&state=oauth-state' });
    const speaker = await TestClient.join(server, guest, joined.roomId, 'en', { protocolVersion: 6 });
    speaker.ws.send(fixture('hello-en.opus'));
    await speaker.next<MessageFrame>((frame) => frame.type === 'message');
    speaker.ws.close();
    await speaker.closed();

    const all = lines();
    const signedIn = all.find((line) => line.msg === 'guest signed in');
    expect(signedIn).toMatchObject({ reqId: expect.stringMatching(/^req-/), user: expect.any(String) });
    const user = signedIn!.user;
    expect(all.find((line) => line.msg === 'room created')).toMatchObject({
      reqId: expect.stringMatching(/^req-/),
      room: joined.roomId,
      user,
    });
    expect(all.find((line) => line.msg === 'voice: transcript posted')).toMatchObject({
      reqId: expect.stringMatching(/^ws-\d+$/),
      room: joined.roomId,
      user,
    });
    const urls = all.flatMap((line) => (line.req ? [(line.req as { url: string }).url] : []));
    expect(urls).toContain(`/verify-email?token=[redacted]&r=${joined.roomId}`);
    expect(urls).toContain('/auth/google/callback?code=[redacted]&state=[redacted]');

    const text = raw.join('');
    for (const secret of [
      guest.token,
      joined.sessionId,
      'mail-link-secret',
      'oauth-code-secret',
      'oauth-state',
    ])
      expect(text).not.toContain(secret);
  });

  it('censors headers and secret fields wherever a call site puts them', () => {
    server.app.log.info(
      {
        headers: { authorization: 'Bearer header-secret', cookie: 'c=cookie-secret' },
        session: { token: 't-1' },
      },
      'probe',
    );
    const probe = lines().find((line) => line.msg === 'probe');
    expect(probe).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      session: { token: '[redacted]' },
    });
  });
});

describe('loggableUrl', () => {
  it('hides the socket path session and every query value but the room code', () => {
    expect(loggableUrl('/xtalk_ws/s-123?t=tok&hello=%7B%7D')).toBe(
      '/xtalk_ws/[redacted]?t=[redacted]&hello=[redacted]',
    );
    expect(loggableUrl('/translate?r=ABC1234')).toBe('/translate?r=ABC1234');
    expect(loggableUrl('/api/health')).toBe('/api/health');
  });
});

describe('mail without SMTP_URL', () => {
  const mail = {
    to: 'ann@example.com',
    subject: 'Confirm',
    text: 'https://x/verify-email?token=link-secret',
  };
  const logOf = async (toLog: boolean) => {
    const out: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void out.push(line) });
    await createMailer({ smtpUrl: undefined, from: 'XTalk <x@x>', toLog }, logger).send(mail);
    return out.join('');
  };

  it('logs that a mail was not sent and to whom, its link only with MAIL_TO_LOG=on', async () => {
    const quiet = await logOf(false);
    expect(quiet).toContain('mail not sent');
    expect(quiet).toContain('ann@example.com');
    expect(quiet).not.toContain('link-secret');
    expect(await logOf(true)).toContain('link-secret');
  });
});
