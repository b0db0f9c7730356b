import { z } from 'zod';
import { clientFrameSchema } from './client-frames.js';
import { PRODUCT_NAME, PROTOCOL_VERSION } from './constants.js';
import { serverFrameSchema } from './frames.js';

/*
 * The room socket's AsyncAPI 3 document, written from the frames' zod schemas (decision 0225): one
 * channel, the frames a client sends (the server receives) and the ones the server sends. Its version is
 * PROTOCOL_VERSION, so a client's developer sees which protocol the document describes; frames that came
 * with a later version say so in their descriptions. Only the server calls it; the package has no side
 * effects, so the web app's bundle leaves it out (decision 0085).
 */

type FrameSchema = z.ZodObject<{ type: z.ZodLiteral<string> }>;

const PAYLOAD_FORMAT = 'application/schema+json;version=draft-07';

function payloadOf(frame: FrameSchema, io: 'input' | 'output') {
  // a transform has no JSON form: it is shown as the value it takes or gives
  return z.toJSONSchema(frame, { target: 'draft-7', io, unrepresentable: 'any' });
}

function messagesOf(frames: readonly FrameSchema[], side: 'client' | 'server') {
  const messages: Record<string, object> = {};
  for (const frame of frames) {
    const type = String(frame.shape.type.value);
    messages[`${side}.${type}`] = {
      name: type,
      title: `${type} (${side === 'client' ? 'from a client' : 'from the server'})`,
      contentType: 'application/json',
      payload: {
        schemaFormat: PAYLOAD_FORMAT,
        schema: payloadOf(frame, side === 'client' ? 'input' : 'output'),
      },
    };
  }
  return messages;
}

const refsTo = (ids: readonly string[], where: string) => ids.map((id) => ({ $ref: `${where}/${id}` }));

/** The document for a server whose public address is `publicUrl` (PUBLIC_URL). */
export function asyncApiDocument(publicUrl: string) {
  const url = new URL(publicUrl);
  const client = messagesOf(clientFrameSchema.options as unknown as FrameSchema[], 'client');
  const server = messagesOf(serverFrameSchema.options as unknown as FrameSchema[], 'server');
  const channelMessages = Object.fromEntries(
    Object.keys({ ...client, ...server }).map((id) => [id, { $ref: `#/components/messages/${id}` }]),
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: `${PRODUCT_NAME} room socket`,
      version: String(PROTOCOL_VERSION),
      description:
        'The WebSocket a client opens after POST /xtalk. Every frame is one JSON text message keyed on `type`. ' +
        'The first frame a client sends is setUsername with the protocolVersion it speaks; the server sends each ' +
        'frame only to clients of the version that brought it or later. A frame that breaks its schema is ' +
        'answered with an error frame and changes nothing.',
    },
    defaultContentType: 'application/json',
    servers: {
      xtalk: {
        host: url.host,
        protocol: url.protocol === 'https:' ? 'wss' : 'ws',
        description: 'The same node that answered POST /xtalk, or one of the socketEndpoints it named.',
      },
    },
    channels: {
      room: {
        address: '/xtalk_ws/{sessionId}',
        description:
          'One room session. The query carries the session token as `t` (a browser cannot set headers on a WebSocket).',
        parameters: { sessionId: { description: 'The sessionId POST /xtalk answered with.' } },
        messages: channelMessages,
      },
    },
    operations: {
      clientFrames: {
        action: 'receive',
        summary: 'Frames a client sends',
        channel: { $ref: '#/channels/room' },
        messages: refsTo(Object.keys(client), '#/channels/room/messages'),
      },
      serverFrames: {
        action: 'send',
        summary: 'Frames the server sends',
        channel: { $ref: '#/channels/room' },
        messages: refsTo(Object.keys(server), '#/channels/room/messages'),
      },
    },
    components: { messages: { ...client, ...server } },
  };
}
