// The zod schemas of the auth answers, loaded on first use (dynamic import) so zod stays off the first
// load of every page while every answer is still checked at the edge.
export {
  botcheckChallengeSchema,
  exchangeResponseSchema,
  guestLoginResponseSchema,
  mailSentResponseSchema,
  nonceResponseSchema,
  signInResponseSchema,
  userSchema,
} from '@xtalk/protocol';
