import type { ApiExamples } from '@xtalk/service-base';

/* What the reference page shows for the player service and a player's own data (decision 0244). */

const PLAYER = {
  id: 'u_8f2c41d7',
  name: 'Mika Tanaka',
  username: 'mika',
  provider: 'ggl',
  platform: 'web',
  appId: 'xtalk',
  platformPlayerID: '108552201497',
  data: { level: 12, team: 'blue' },
  links: [{ provider: 'ggl', subject: '108552201497', issuer: 'https://accounts.google.com' }],
} as const;
const DELETED = { deleted: true, unspentPaidCredits: 0 };

export const PLAYER_EXAMPLES: ApiExamples = {
  'PUT /api/player': { body: { id: 'u_8f2c41d7', name: 'Mika Tanaka' }, 200: PLAYER },
  'DELETE /api/player': { body: { password: 'correct horse battery' }, 200: DELETED },
  'GET /api/player/:id': { 200: PLAYER },
  'DELETE /api/player/:id': { 200: { deleted: true, unspentPaidCredits: 120 } },
  'PUT /api/player/:id/data': { body: { data: { level: 12, team: 'blue' } }, 200: PLAYER },
  'POST /api/players/load_by_platform_id': {
    body: { platform: 'web', appID: 'xtalk', platformPlayerIds: ['108552201497'] },
    200: { players: [PLAYER] },
  },
  'POST /api/players/load_by_gct_id': { body: { gctIDs: ['u_8f2c41d7'] }, 200: { players: [PLAYER] } },
  'GET /api/player/export': {
    200: {
      format: 'xtalk-export/1',
      exportedAt: '2026-11-28T12:00:00.000Z',
      profile: { id: PLAYER.id, name: PLAYER.name, username: PLAYER.username },
      signIns: [{ provider: 'ggl', subject: '108552201497' }],
      emails: [],
      rooms: [
        { roomId: 'R7KQ2MX', joinedAt: '2026-11-20T09:00:00.000Z', lastVisitAt: '2026-11-28T11:40:00.000Z' },
      ],
      messages: [],
      ledger: [],
      orders: [],
    },
  },
};
