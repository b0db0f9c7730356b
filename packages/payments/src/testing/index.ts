/* Test helpers: stand-ins for Stripe and Google Play over real HTTP, Facebook's signing, the test service. */
export {
  startFakeStripe,
  stripeEvent,
  stripeSignature,
  type CreateRequest,
  type FakeStripe,
} from './fake-stripe.js';
export { startFakeGooglePlay, type FakeGooglePlay, type FakePlayPurchase } from './google-play-server.js';
export { signRequest } from './facebook.js';
export * from './payment-server.js';
export * from './wallet-calls.js';
