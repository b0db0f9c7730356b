import WebSocket from 'ws';
import { ApiPath, PROTOCOL_VERSION, type GuestLoginResponse, type ServerFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, mapLimit } from './lib/guest.js';

/*
 * The flooder of the flood run (bench/flood-run.ts), in a process of its own: one guest, as many sockets
 * as the server lets it open, junk on all of them as fast as it can, reopening what the server closes.
 * Runs until SIGTERM, then prints what it counted as one JSON line.
 */

export interface AttackerStats {
  socketsOpened: number;
  socketsRefused: number;
  joinsRefused: number;
  closedByServer: Record<string, number>;
  framesSent: number;
  errorFrames: Record<string, number>;
}

/** One guest, as many sockets as the server lets it have, junk on all of them. */
async function startAttacker(
  server: { baseUrl: string; wsBase: string },
  options: { attackerSockets: number; junkPerSecond: number },
) {
  const login: GuestLoginResponse = await guestLogin(server.baseUrl);
  const room = (await joinRoom(server.baseUrl, login.token, null)).roomId;
  const stats: AttackerStats = {
    socketsOpened: 0,
    socketsRefused: 0,
    joinsRefused: 0,
    closedByServer: {},
    framesSent: 0,
    errorFrames: {},
  };
  let stopped = false;
  const open = new Set<WebSocket>();
  const junk = [
    '{not json',
    JSON.stringify({ type: 'chat', language: 'en', message: 'flood', room }),
    JSON.stringify({ type: 'updateUsername', username: login.user.username, displayUsername: 'X' }),
    JSON.stringify({ type: 'dance', x: 'y'.repeat(200) }),
  ];

  async function openOne(): Promise<void> {
    if (stopped) return;
    let sessionId: string;
    try {
      sessionId = (await joinRoom(server.baseUrl, login.token, room)).sessionId;
    } catch {
      stats.joinsRefused++;
      return;
    }
    const url = `${server.wsBase}${ApiPath.socket(sessionId)}?t=${encodeURIComponent(login.token)}`;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('unexpected-response', (_request, response) => {
      stats.socketsRefused++;
      response.resume();
      ws.terminate();
    });
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (frame.type === 'error') stats.errorFrames[frame.code] = (stats.errorFrames[frame.code] ?? 0) + 1;
    });
    ws.on('open', () => {
      stats.socketsOpened++;
      open.add(ws);
      ws.send(
        JSON.stringify({
          type: 'setUsername',
          protocolVersion: PROTOCOL_VERSION,
          username: login.user.username,
          language: 'en',
          room,
        }),
      );
    });
    ws.on('close', (code) => {
      if (!open.delete(ws)) return;
      stats.closedByServer[code] = (stats.closedByServer[code] ?? 0) + 1;
      // come straight back, as a flooder would
      if (!stopped) setTimeout(() => void openOne(), 100);
    });
  }

  await mapLimit(Array.from({ length: options.attackerSockets }), 8, () => openOne());
  const perTick = Math.max(1, Math.round(options.junkPerSecond / 100));
  const pump = setInterval(() => {
    for (const ws of open) {
      if (ws.readyState !== WebSocket.OPEN || ws.bufferedAmount > 1 << 20) continue;
      for (let i = 0; i < perTick; i++) {
        const n = stats.framesSent++;
        if (n % 5 === 4) ws.send(Buffer.from([0x4f, 0x67, 0x67, 0x53, n & 0xff]), { binary: true });
        else ws.send(junk[n % junk.length]!);
      }
    }
  }, 10);
  return {
    stats,
    stop() {
      stopped = true;
      clearInterval(pump);
      for (const ws of open) ws.terminate();
    },
  };
}

const attacker = await startAttacker(
  { baseUrl: process.env.FLOOD_BASE_URL ?? '', wsBase: process.env.FLOOD_WS_BASE ?? '' },
  {
    attackerSockets: Number(process.env.FLOOD_SOCKETS ?? 100),
    junkPerSecond: Number(process.env.FLOOD_JUNK_PER_SECOND ?? 2000),
  },
);
console.log('flooding');
process.once('SIGTERM', () => {
  attacker.stop();
  console.log(JSON.stringify(attacker.stats));
  process.exit(0);
});
