/* Paths and provider names of the own backend, free of zod so the web's first load can import them. */

export const PROVIDERS = ['guest', 'ggl'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Paths of the own backend, so neither side spells them twice. */
export const ApiPath = {
  botcheck: '/api/auth/botcheck',
  guest: '/api/auth/guest',
  me: '/api/me',
  join: '/xtalk',
  socket: (sessionId: string) => `/xtalk_ws/${encodeURIComponent(sessionId)}`,
  health: '/api/health',
  /** Readiness: 200 only while this node takes work (liveness stays `health`). */
  healthReady: '/api/health/ready',
  /** Accounts: sign-in (server routes the browser navigates to, then the exchange), profile, history. */
  googleLogin: '/auth/google/login',
  googleCallback: '/auth/google/callback',
  authConfig: '/api/auth/config',
  exchange: '/api/auth/exchange',
  /** Ends the session of the bearer token; `logoutAll` ends every session of its player. Bearer. */
  logout: '/api/auth/logout',
  logoutAll: '/api/auth/logout-all',
  users: '/users',
  roomHistory: '/api/rooms/history',
  /** A room's glossary (glossary.ts): GET for members, PUT for signed-in members. Bearer. */
  glossary: (roomId: string) => `/api/rooms/${encodeURIComponent(roomId)}/glossary`,
  /** Player service. */
  /** The signed-in player's own: GET/PUT (player service), DELETE (the account goes). */
  player: '/api/player',
  /** A copy of everything XTalk holds of the signed-in player (JSON, or Markdown with ?format=md). */
  playerExport: '/api/player/export',
  playerById: (id: string) => `/api/player/${encodeURIComponent(id)}`,
  playerData: (id: string) => `/api/player/${encodeURIComponent(id)}/data`,
  playersByPlatformId: '/api/players/load_by_platform_id',
  playersByGctId: '/api/players/load_by_gct_id',
  /** Wallet, client calls (bodies in wallet.ts). Bearer. */
  walletBalance: '/api/wallet/balance',
  walletList: '/api/wallet/list',
  walletPurchase: '/api/wallet/purchase',
  walletPurchaseStatus: '/api/wallet/purchase/status',
  walletTxnList: '/api/wallet/txn/list',
  walletWithdrawRequest: '/api/wallet/withdraw-request',
  /** Payments: Stripe's webhook, and the built-in TEST MODE checkout page (HTML) with its two actions. */
  stripeWebhook: '/api/payments/stripe/webhook',
  testCheckout: (orderId: string) => `/api/payments/test-checkout/${encodeURIComponent(orderId)}`,
  testCheckoutPay: (orderId: string) => `/api/payments/test-checkout/${encodeURIComponent(orderId)}/pay`,
  testCheckoutCancel: (orderId: string) =>
    `/api/payments/test-checkout/${encodeURIComponent(orderId)}/cancel`,
} as const;

/** The player service's own paths (bodies in player-accounts.ts). */
export const PlayerPath = {
  emailRegister: '/api/auth/email/register',
  emailVerify: '/api/auth/email/verify',
  emailLogin: '/api/auth/email/login',
  emailForgot: '/api/auth/email/forgot',
  emailReset: '/api/auth/email/reset',
  emailResend: '/api/auth/email/resend',
  password: '/api/player/password',
  nonce: (address: string) => `/api/auth/nonce/${encodeURIComponent(address)}`,
  wallet: '/api/auth/wallet',
  token: '/api/auth/token',
  links: '/api/player/links',
  link: '/api/player/link',
  unlink: (provider: string, subject: string) =>
    `/api/player/link/${encodeURIComponent(provider)}/${encodeURIComponent(subject)}`,
} as const;

/** Where the mails' links open in the web app; their query carries `token=`. */
export const MailPagePath = { verify: '/verify-email', reset: '/reset-password' } as const;
