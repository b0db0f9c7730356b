import { z } from 'zod';

/**
 * POST /xtalk's answer: the session for the room joined. In a module of its own, apart from http.ts, so
 * the room screen, which parses it, does not build every other HTTP schema with it (decision 0084).
 */
export const joinRoomResponseSchema = z.object({
  sessionId: z.string(),
  roomId: z.string(),
  /**
   * The protocol version of the server that answered (5 and later): from 5 the socket's URL may carry the
   * hello (`&hello=` and the setUsername frame's JSON), and READY follows the 101 at once (decision 0141).
   */
  protocolVersion: z.number().int().optional(),
  /**
   * The ws:// or wss:// addresses (origins) the room's socket may open on, in order: the nodes of a
   * cluster, set by PUBLIC_WS_ENDPOINTS. A client starts at any of them and goes on to the next when a
   * connection fails or ends abnormally. Absent: the page's own origin.
   */
  socketEndpoints: z.array(z.string()).optional(),
  /**
   * The same addresses in the room's order (rendezvous hashing of the room code, decision 0237): its home
   * node first, then where its members go when the home is gone. A client that reads it opens the socket
   * on the first it can reach and goes back to the first when it is reachable again, so a room's members
   * share a node and its frames stay off the bus between nodes. In a hot room (more people than one node
   * takes, decision 0250) the first is the node whose turn it is for this joiner, the rest in the room's
   * order. Absent with `socketEndpoints`.
   */
  roomEndpoints: z.array(z.string()).optional(),
});
export type JoinRoomResponse = z.infer<typeof joinRoomResponseSchema>;
