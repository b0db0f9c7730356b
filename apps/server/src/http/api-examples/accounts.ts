import type { ApiExamples } from '@xtalk/service-base';

/* What the reference page shows for signing in, the profile and linked sign-ins (decision 0244). */

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiJ1XzhmMmMifQ.c2lnbmVk';
const USER = {
  userId: 'u_8f2c41d7',
  appId: 'xtalk',
  platform: 'web',
  platformPlayerId: '108552201497',
  provider: 'ggl',
  username: 'mika',
  displayUsername: 'Mika',
  name: 'Mika Tanaka',
  expiresAt: 1_795_000_000_000,
} as const;
const GUEST = {
  ...USER,
  userId: 'u_3a90be12',
  platformPlayerId: 'g_3a90be12',
  provider: 'guest',
  username: 'quiet-otter-42',
  displayUsername: 'quiet-otter-42',
  name: 'quiet-otter-42',
} as const;
const SIGNED_IN = { token: TOKEN, user: USER };
const DONE = { ok: true, message: 'Signed out.' };
const LINKS = {
  links: [
    { provider: 'ggl', subject: '108552201497', issuer: 'https://accounts.google.com' },
    { provider: 'email', subject: 'mika@example.com' },
  ],
};
const EMAIL = 'mika@example.com';
const PASSWORD = 'correct horse battery';
const WALLET_SIGNATURE = {
  nonce: 'n_5d1e0c9a',
  signature: '0x4f3c9e2b7a11d5c8e6f0a9b3c2d1e0f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f21b',
  chainType: 'evm',
  networkID: 1,
  walletProvider: 'metamask',
  signingData: 'xtalk.example wants you to sign in with your Ethereum account.\nNonce: n_5d1e0c9a',
};

export const ACCOUNT_EXAMPLES: ApiExamples = {
  'POST /api/auth/logout': { 200: DONE },
  'POST /api/auth/logout-all': { 200: { ok: true, message: 'Signed out everywhere.' } },
  'GET /api/auth/botcheck': {
    200: {
      provider: 'altcha',
      challenge: {
        algorithm: 'SHA-256',
        challenge: '9b1e0c…',
        maxnumber: 1_000_000,
        salt: 's1',
        signature: 'e3…',
      },
    },
  },
  'POST /api/auth/guest': {
    body: { botcheck: 'eyJjaGFsbGVuZ2UiOnsiYWxnb3JpdGhtIjoiU0hBLTI1NiJ9fQ==' },
    200: {
      token: TOKEN,
      user: GUEST,
      player: { id: GUEST.userId, platformPlayerID: GUEST.platformPlayerId },
    },
  },
  'GET /api/me': { 200: USER },
  'GET /api/auth/config': {
    200: {
      google: true,
      mail: true,
      email: true,
      telegram: false,
      wallet: { chainId: 1, domain: 'xtalk.example' },
    },
  },
  'POST /api/auth/exchange': {
    body: { token: 'ya29.a0AfB_byC3', provider: 'ggl', platformPlayerId: '108552201497' },
    200: SIGNED_IN,
  },
  'PATCH /users': { body: { name: 'mika', fullName: 'Mika Tanaka' }, 200: { user: USER } },
  'POST /api/auth/email/register': {
    body: { email: EMAIL, password: PASSWORD },
    202: { ok: true, message: 'Check your mailbox for the link that confirms the address.' },
  },
  'POST /api/auth/email/verify': {
    body: { token: 'v_7c2e91f0a4' },
    200: { ok: true, message: 'Address confirmed.' },
  },
  'POST /api/auth/email/resend': {
    body: { email: EMAIL },
    202: { ok: true, message: 'If the address is waiting for confirmation, a new link is on its way.' },
  },
  'POST /api/auth/email/forgot': {
    body: { email: EMAIL },
    202: { ok: true, message: 'If an account has this address, a reset link is on its way.' },
  },
  'POST /api/auth/email/reset': {
    body: { token: 'r_0e6b3d2c19', newPassword: 'a new long passphrase' },
    200: { ok: true, message: 'Password changed.' },
  },
  'POST /api/auth/email/login': { body: { email: EMAIL, password: PASSWORD }, 200: SIGNED_IN },
  'PUT /api/player/password': {
    body: { password: PASSWORD, newPassword: 'a new long passphrase' },
    200: { ok: true, message: 'Password changed.' },
  },
  'GET /api/auth/nonce/:address': {
    200: {
      nonce: WALLET_SIGNATURE.nonce,
      message: 'Sign this message to prove you own the wallet. Nonce: n_5d1e0c9a',
    },
  },
  'POST /api/auth/wallet': { body: WALLET_SIGNATURE, 200: SIGNED_IN },
  'POST /api/auth/token': {
    body: {
      app_id: 'puzzle-quest',
      platform: 'android',
      identity_provider: 'game-server',
      platform_player_id: 'pq-77120',
      payload: '',
      data: { level: 12 },
    },
    200: SIGNED_IN,
  },
  'GET /api/player/links': { 200: LINKS },
  'POST /api/player/link': {
    body: { provider: 'email', email: EMAIL, password: PASSWORD },
    200: LINKS,
    202: { ok: true, message: 'Check your mailbox for the link that confirms the address.' },
  },
  'DELETE /api/player/link/:provider/:subject': {
    200: { links: [{ provider: 'ggl', subject: '108552201497', issuer: 'https://accounts.google.com' }] },
  },
};
