import { errorBodySchema } from './http.js';

/*
 * The words every route's schema shares with the published OpenAPI document (decision 0224): the areas a
 * route is filed under, the three ways a caller proves who it is, and the one error shape each refusal
 * answers with. The server and the standalone payment service describe their routes with these, so a
 * client generated from either document sees the same names.
 */

/** The areas of the API, in the order the reference page lists them. */
export const ApiTag = {
  rooms: 'Guests and rooms',
  accounts: 'Accounts',
  players: 'Players',
  credits: 'Credits',
  payments: 'Payments',
  glossary: 'Glossary',
  health: 'Health',
} as const;
export type ApiTagName = (typeof ApiTag)[keyof typeof ApiTag];

export const API_TAGS: readonly { name: ApiTagName; description: string }[] = [
  {
    name: ApiTag.rooms,
    description: 'A guest session (after the bot check), joining or creating a room, the room history.',
  },
  {
    name: ApiTag.accounts,
    description:
      'Signing in (Google, email, wallet, token exchange), signing out, the profile, linked sign-ins.',
  },
  {
    name: ApiTag.players,
    description: 'The player service other servers call with the admin key: players and their data.',
  },
  {
    name: ApiTag.credits,
    description: "A signed-in player's wallet: balance, transactions, buying credits, withdraw requests.",
  },
  {
    name: ApiTag.payments,
    description:
      'The payment service other servers call with the server key (wallets, transactions, app-store purchases) and the admin calls.',
  },
  { name: ApiTag.glossary, description: "A room's glossary: the terms its translations keep." },
  { name: ApiTag.health, description: 'Liveness and readiness of a node.' },
];

/** The security schemes' names, as a route's `security` names them. */
export const ApiSecurity = {
  /** `Authorization: Bearer <session token>`: a guest's or a signed-in player's token. */
  bearer: [{ bearerSession: [] }],
  /** `X-Server-Key`: another server (PAYMENT_SERVER_KEY). */
  serverKey: [{ serverKey: [] }],
  /** `X-Admin-Key`: an administrator or a trusted server (ADMIN_API_KEY). */
  adminKey: [{ adminKey: [] }],
  /** A player's own token, or the admin key for any player (the player service). */
  bearerOrAdminKey: [{ bearerSession: [] }, { adminKey: [] }],
} as const;

export const API_SECURITY_SCHEMES = {
  bearerSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'The session token a sign-in or a guest login answers with.',
  },
  serverKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Server-Key',
    description: "The payment service's server key (PAYMENT_SERVER_KEY), for other servers.",
  },
  adminKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Admin-Key',
    description: 'The admin key (ADMIN_API_KEY) of the player API and the payment admin calls.',
  },
} as const;

/** A route's refusals for its schema: each status answers in the one error shape. */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
