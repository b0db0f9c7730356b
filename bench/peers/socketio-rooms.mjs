import { createServer } from 'node:http';
import { Server } from 'socket.io';

/*
 * Peer for the fan-out bench: Socket.IO rooms, the way a Socket.IO chat is written. A socket joins the
 * room named in its handshake query (`?room=A`); an `m` event it emits is sent to the whole room
 * (`io.to(room).emit`, the sender included, as XTalk echoes). WebSocket transport only, no compression.
 */
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

const server = createServer((request, response) => {
  response.writeHead(request.url === '/api/health' ? 200 : 404).end();
});
const io = new Server(server, { transports: ['websocket'], perMessageDeflate: false, serveClient: false });
io.on('connection', (socket) => {
  const room = String(socket.handshake.query.room ?? 'lobby');
  void socket.join(room);
  socket.on('m', (text) => io.to(room).emit('m', text));
});
server.listen(port, host);
process.on('SIGTERM', () => {
  io.close();
  server.close(() => process.exit(0));
});
