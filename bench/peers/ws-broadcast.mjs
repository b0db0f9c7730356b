import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

/*
 * Peer for the fan-out bench: the plainest room broadcast on `ws`. A socket joins the room named in its
 * URL (`/?room=A`); every text frame it sends goes, unchanged, to every socket of that room (the sender
 * too, as XTalk echoes). No parsing, no storage: the floor for a Node WebSocket server.
 */
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const rooms = new Map();

const server = createServer((request, response) => {
  response.writeHead(request.url === '/api/health' ? 200 : 404).end();
});
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (socket, request) => {
  const room = new URL(request.url ?? '/', 'http://x').searchParams.get('room') ?? 'lobby';
  let members = rooms.get(room);
  if (!members) rooms.set(room, (members = new Set()));
  members.add(socket);
  socket.on('message', (data, isBinary) => {
    for (const member of members) member.send(data, { binary: isBinary });
  });
  socket.on('close', () => {
    members.delete(socket);
    if (members.size === 0) rooms.delete(room);
  });
});
server.listen(port, host);
process.on('SIGTERM', () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
