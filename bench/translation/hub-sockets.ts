import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { HubMember, RoomHub } from '../../apps/server/src/delivery/room-hub.js';

/*
 * The server side of the in-process translation run: real `ws` sockets on 127.0.0.1, each a member of the
 * room hub as the gateway makes one (room, user and language from the URL). A socket hears `attached` once
 * the hub has it.
 */

export async function listenAsHubMembers(hub: RoomHub) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws, request) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const member: HubMember = {
      roomId: url.searchParams.get('room') ?? '',
      username: () => url.searchParams.get('user') ?? '',
      language: () => url.searchParams.get('lang') ?? 'en',
      deliverText: (json) => ws.send(json, { binary: false }),
      deliverAudio: (wav) => ws.send(wav, { binary: true }),
      deliverSpeech: (json, ogg) => {
        ws.send(json, { binary: false });
        ws.send(ogg, { binary: true });
      },
    };
    void hub.attach(member).then(() => ws.send('attached'));
    ws.on('close', () => void hub.detach(member));
  });
  return {
    port: (wss.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}
