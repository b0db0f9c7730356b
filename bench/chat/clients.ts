import type WebSocket from 'ws';
import type { GuestLoginResponse, JoinRoomResponse } from '@xtalk/protocol';
import { mapLimit, openSocket } from '../lib/guest.js';
import { loginGuests, seatInRooms } from '../lib/rooms.js';
import type { ServerProcess } from '../lib/server-process.js';
import type { Deliveries } from './deliveries.js';
import type { MemorySamples } from './memory-samples.js';

/* The chat run's clients: guests seated in their rooms over HTTP, then their sockets, opened in batches. */

export interface Client {
  index: number;
  room: number;
  login: GuestLoginResponse;
  session: JoinRoomResponse;
  ws?: WebSocket;
  seq: number;
  closedByUs: boolean;
}

/** How the sockets fared after they opened; the counts go on until the run closes them. */
export interface SocketTrouble {
  unexpectedCloses: number;
  socketErrors: number;
  setupFailures: number;
}

interface Setup {
  rooms: number;
  clientsPerRoom: number;
  setupConcurrency: number;
  log: (line: string) => void;
}

/** Signs in one guest per client and seats them in their rooms, timing the logins and the joins apart. */
export async function seatClients(server: ServerProcess, options: Setup) {
  const total = options.rooms * options.clientsPerRoom;
  options.log(`logging in ${total} guests (ALTCHA solved in-process)...`);
  let t0 = performance.now();
  const logins = await loginGuests(server.baseUrl, total, options.setupConcurrency);
  const loginMs = performance.now() - t0;
  t0 = performance.now();
  const sessions = await seatInRooms(
    server.baseUrl,
    logins,
    options.clientsPerRoom,
    options.setupConcurrency,
  );
  const joinMs = performance.now() - t0;
  const clients: Client[] = logins.map((login, index) => ({
    index,
    room: Math.floor(index / options.clientsPerRoom),
    login,
    session: sessions[index]!,
    seq: 0,
    closedByUs: false,
  }));
  return { clients, loginMs, joinMs };
}

// Sockets open in batches with the RSS sampled after each: the server's RSS also moves by hundreds of MiB
// on its own (see BENCH.md), so the median per-batch step is reported beside (after - before) / n.
const BATCHES = 5;

/** Opens every client's socket in batches, the RSS settled after each; returns the steps per socket. */
export async function openInBatches(
  server: ServerProcess,
  clients: Client[],
  deliveries: Deliveries,
  memory: MemorySamples,
  beforeConnectKiB: number,
  options: Setup,
) {
  const trouble: SocketTrouble = { unexpectedCloses: 0, socketErrors: 0, setupFailures: 0 };
  const batchSize = Math.ceil(clients.length / BATCHES);
  const batchSteps: number[] = [];
  let previousKiB = beforeConnectKiB;
  options.log(`opening ${clients.length} sockets in ${options.rooms} rooms (${BATCHES} batches)...`);
  let connectMs = 0;
  for (let batch = 0; batch < BATCHES; batch += 1) {
    const batchClients = clients.slice(batch * batchSize, (batch + 1) * batchSize);
    const batchStart = performance.now();
    await mapLimit(batchClients, options.setupConcurrency, (client) =>
      openClient(server, client, deliveries, trouble, options.log),
    );
    connectMs += performance.now() - batchStart;
    const opened = batchClients.filter((client) => client.ws).length;
    const nowKiB = await memory.settled(`connect batch ${batch + 1}`);
    if (opened > 0) batchSteps.push((nowKiB - previousKiB) / opened);
    previousKiB = nowKiB;
  }
  return { connectMs, batchSteps, afterConnectKiB: previousKiB, trouble };
}

async function openClient(
  server: ServerProcess,
  client: Client,
  deliveries: Deliveries,
  trouble: SocketTrouble,
  log: (line: string) => void,
): Promise<void> {
  try {
    const receive = deliveries.receiver(client.index, client.login.user.username);
    const ws = await openSocket(server.wsBase, client.login, client.session, 'en', receive);
    client.ws = ws;
    ws.on('close', () => {
      if (!client.closedByUs) trouble.unexpectedCloses += 1;
    });
    ws.on('error', () => (trouble.socketErrors += 1));
  } catch (error) {
    trouble.setupFailures += 1;
    log(`socket for client ${client.index} failed: ${(error as Error).message}`);
  }
}

/** Closes the clients' sockets; a close from here on is expected. */
export function closeClients(clients: readonly Client[]): void {
  for (const client of clients) {
    client.closedByUs = true;
    client.ws?.close(1000);
  }
}
