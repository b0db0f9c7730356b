import type { ApiExamples } from '@xtalk/service-base';

/* What the reference page shows for rooms, glossaries and health (decision 0244). */

const GLOSSARY_ENTRY = { term: 'raid', language: 'en', renderings: { ja: 'レイド', fr: 'raid' } };
const GLOSSARY = { version: 3, entries: [{ id: 'g_1', ...GLOSSARY_ENTRY }] };

export const ROOM_EXAMPLES: ApiExamples = {
  'GET /api/rooms/history': {
    200: { rooms: [{ roomId: 'R7KQ2MX', added: 1_794_900_000_000, updated: 1_795_000_000_000 }] },
  },
  'POST /xtalk': {
    body: { action: 'join', roomId: 'R7KQ2MX', language: 'ja' },
    200: {
      sessionId: 's_4b0f9e21',
      roomId: 'R7KQ2MX',
      protocolVersion: 9,
      socketEndpoints: ['wss://node-a.xtalk.example', 'wss://node-b.xtalk.example'],
    },
  },
  'GET /api/rooms/:roomId/glossary': { 200: GLOSSARY },
  'PUT /api/rooms/:roomId/glossary': { body: { entries: [GLOSSARY_ENTRY] }, 200: GLOSSARY },
  'GET /api/health': { 200: { ok: true, status: 'ok', db: 'postgres', bus: 'redis', busConnected: true } },
  'GET /api/health/ready': { 200: { ok: true, status: 'ready' } },
};
