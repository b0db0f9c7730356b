/** Shared constants of the product. One source of truth for server and web. */

export const PRODUCT_NAME = 'XTalk';
/** The app id of this product's players: the token endpoint's `app_id`. */
export const APP_ID = 'xtalk';
/** The platform the token endpoint's Telegram sign-ins (tgw, tga) belong to. */
export const TELEGRAM_PLATFORM = 'tg';
/**
 * The protocol version this code speaks; sent in setUsername by clients and in READY by the server.
 * 2: offsets, epochs and resume, client message ids (docs/decisions/0060-protocol-version-handshake.md).
 * 3: corrections (editMessage, messageEdited, `editedAt`; docs/decisions/0130-corrections.md); the
 *    room's languages in READY; streaming voice (voiceStart, Ogg pages, voiceEnd), live captions
 *    (captionPartial), clip translations before the message (docs/decisions/0120-streaming-voice.md);
 *    JOIN/LEAVE of several people in one frame (`usernames`, docs/decisions/0110).
 *    A client below 3 is never sent a frame it cannot parse.
 * 4: translationFailed, which ends a translation that streamed some chunks and then failed for good
 *    (docs/decisions/0126-notices-by-kind-and-failed-translations.md); a client below 4 is not sent it.
 * 5: ping, which the server answers with pong whatever the client's version, so that a client can tell a
 *    quiet room from a dead socket (docs/decisions/0139-a-socket-that-dies-without-a-close.md). A client
 *    sends it only to a server whose READY says 5 or more; no frame changes for older clients. The hello
 *    may come in the socket's URL (`&hello=`), which POST /xtalk's `protocolVersion` announces
 *    (docs/decisions/0141-the-hello-in-the-socket-url.md).
 * 6: the room glossary (glossaryUpdated), "Catch me up" (summarize, summaryChunk, summaryComplete;
 *    docs/decisions/0156-room-glossary.md, 0157-catch-me-up.md) and spoken translations sentence by
 *    sentence as Ogg/Opus (`speech`, then one binary frame of its `bytes`;
 *    docs/decisions/0158-speech-sentence-by-sentence.md); a client below 6 is sent none of them and gets
 *    one WAV per message as before. A client refused with 4400 by an older node (a rolling deploy) speaks
 *    the newest version that node names instead of stopping, and a close with 1012 means "reconnect at
 *    once, elsewhere" (docs/decisions/0146-rolling-deploys-and-protocol-fallback.md).
 * 7: hot rooms (docs/decisions/0166-hot-rooms-count-instead-of-names.md): JOIN and LEAVE carry the room's
 *    member count (`members`), and in a room above the server's threshold a client gets MEMBERS frames
 *    (the count, how many came and went, the latest few names) instead of one name per person; a client
 *    below 7 gets every name as before. A client of this version (from the server's
 *    CLIENT_ID_REQUIRED_FROM_PROTOCOL on) sends a clientId with every chat frame; READY says so
 *    (`clientIdRequired: true`) and a chat frame without one is refused, stored nowhere
 *    (docs/decisions/0163-client-id-required.md). Older clients are served as before and get no such field.
 *    A client may ask again for a message's failed translations (`retranslate`), and messages carry the
 *    languages that failed (`failedTranslations`; docs/decisions/0170-failed-translations-kept.md).
 * 8: a translation into a language the server has no voice for comes with `noServerVoice` (its text, to
 *    that language's listeners), and the client speaks it with the browser's own speech synthesis
 *    (docs/decisions/0205-no-server-voice.md). A client below 8 is not sent it and hears nothing, as before.
 * 9: a member may ask who is in its room (`members`, paged by a cursor), and is answered with a
 *    `memberList` page of usernames and display names from every node: a hot room sends counts, not names,
 *    and this is how a client lists them when its user asks. A client below 9 that sends it gets an error.
 */
export const PROTOCOL_VERSION = 9;
/** The first version that may ask for its room's member list (`members` → `memberList`). */
export const MEMBER_LIST_PROTOCOL_VERSION = 9;
/** The most members one `memberList` page holds (a `members` frame may ask for fewer). */
export const MEMBER_PAGE_MAX = 100;
/** The first version that is sent `noServerVoice` for a translation the server cannot speak. */
export const NO_SERVER_VOICE_PROTOCOL_VERSION = 8;
/** The first version that is sent MEMBERS in a hot room instead of every JOIN and LEAVE name. */
export const MEMBER_COUNT_PROTOCOL_VERSION = 7;
/** The first version that must send a clientId with every chat frame (the server's default line). */
export const CLIENT_ID_REQUIRED_PROTOCOL_VERSION = 7;
/**
 * The first version whose server takes retranslate ("Try again") and keeps a message's failed languages
 * (`failedTranslations`; docs/decisions/0170-failed-translations-kept.md). An older client gets its
 * messages without the field (docs/decisions/0186-try-again-paid-up-front.md).
 */
export const RETRANSLATE_PROTOCOL_VERSION = 7;
/** The first version that understands glossaryUpdated (older clients are not sent it). */
export const GLOSSARY_PROTOCOL_VERSION = 6;
/** The first version that may send summarize and understands summaryChunk and summaryComplete. */
export const SUMMARY_PROTOCOL_VERSION = 6;
/** The first version that gets spoken translations as `speech` frames of Ogg/Opus sentences. */
export const SPEECH_STREAM_PROTOCOL_VERSION = 6;
/** The first version whose server answers ping with pong. */
export const PING_PROTOCOL_VERSION = 5;
/** The first version whose server reads the hello from the socket's URL (`&hello=`). */
export const HELLO_IN_URL_PROTOCOL_VERSION = 5;
/** The first version that understands messageEdited (older clients get the edit as a `message` frame). */
export const EDITS_PROTOCOL_VERSION = 3;
/** The first version that understands translationFailed (older clients are not sent it). */
export const TRANSLATION_FAILED_PROTOCOL_VERSION = 4;
/** The oldest version a server serves by default (a setUsername without a version is version 1). */
export const MIN_PROTOCOL_VERSION = 1;

/** The mascot/system user (docs/product.md#people). */
export const SYSTEM_USERNAME = '_xtalkchan';
export const SYSTEM_DISPLAY_NAME = 'XTalkChan';

export const ROOM_CODE_LENGTH = 7;
/** Upper-case letters and digits without look-alikes (no 0/O, 1/I/L). */
export const ROOM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** The room id meaning "not yet created". */
export const NEW_ROOM = 'new';
export const PAST_ROOMS_LIMIT = 20;

export const MAX_MESSAGE_LENGTH = 2000;
export const TYPING_INDICATOR_MS = 5000;

export const RECORDING_MIN_MS = 500;
export const RECORDING_MAX_MS = 60_000;
export const MIC_DEBOUNCE_MS = 150;
/** Voice clips: Opus at this rate, mono, in an Ogg container, one binary WebSocket frame each. */
export const AUDIO_SAMPLE_RATE = 16_000;
/** The longest clip the server takes (the recorder stops at RECORDING_MAX_MS). */
export const MAX_AUDIO_CLIP_SECONDS = RECORDING_MAX_MS / 1000;
/** The largest clip the server takes: 60 s of 16 kHz Opus is about 120 KiB, so this is ample. */
export const MAX_AUDIO_CLIP_BYTES = 1024 * 1024;

export const DEFAULT_LANGUAGE = 'en';
/** Languages of the interface (the JA/EN switch). Rooms may translate into more (server LANGUAGES). */
export const UI_LANGUAGES = ['en', 'ja'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const DEFAULT_SESSION_TTL_SECONDS = 43_200;

export const LOW_BALANCE_HINT_BELOW = 1000;
export const BALANCE_COLOUR_THRESHOLDS = { red: 250, orange: 700 } as const;

/** WebSocket close codes used by the server beyond the standard ones. */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  PolicyViolation: 1008,
  /** The node is draining (a deploy or restart): reconnect at once, to another node. */
  ServiceRestart: 1012,
  /** The session was taken over or ended by the server. */
  SessionEnded: 4000,
  /** The token expired while connected. */
  TokenExpired: 4001,
  /**
   * The sign-in session of the socket's token was ended (sign-out, sign out everywhere, a new password):
   * the person is signed out; no reconnect.
   */
  SignedOut: 4002,
  /** The client speaks a protocol version this server cannot serve: reload the page. */
  UnsupportedVersion: 4400,
} as const;

/** Email accounts' password length; here, free of zod, for the web's sign-in form. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
