import { parseClientFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { LogSampler } from './log-sampler.js';
import { createTokenBucket } from './rate-limit.js';

/*
 * Limits on what one connection may send (docs/decisions/0070-limits-on-every-door.md). Every inbound
 * frame, valid or not, text or binary, first takes a token from the connection's overall bucket, before
 * it is even parsed; then a valid frame takes one from its kind's bucket (chat, control) and an invalid one
 * from the invalid bucket. A refused frame is not handled. The client is told `rate_limited`, but at most
 * once a second for frames refused by the overall bucket or as invalid (answering each one would turn a flood into a
 * flood back); after `floodCloseAfter` refusals in a row the connection is closed (1008).
 */

export type FrameKind = 'chat' | 'control' | 'invalid';

export interface FrameLimitSettings {
  framesPerSecond: number;
  frameBurst: number;
  chatPerSecond: number;
  chatBurst: number;
  controlPerSecond: number;
  controlBurst: number;
  invalidPerSecond: number;
  invalidBurst: number;
  floodCloseAfter: number;
}

/** What the connection needs: the settings and the process-wide sampled log. */
export interface FrameLimitPolicy {
  settings: FrameLimitSettings;
  log: LogSampler;
}

export function frameLimitSettings(config: Config): FrameLimitSettings {
  return {
    framesPerSecond: config.WS_FRAMES_PER_SECOND,
    frameBurst: config.WS_FRAME_BURST,
    chatPerSecond: config.WS_CHAT_PER_SECOND,
    chatBurst: config.WS_CHAT_BURST,
    controlPerSecond: config.WS_CONTROL_PER_SECOND,
    controlBurst: config.WS_CONTROL_BURST,
    invalidPerSecond: config.WS_INVALID_PER_SECOND,
    invalidBurst: config.WS_INVALID_BURST,
    floodCloseAfter: config.WS_FLOOD_CLOSE_AFTER,
  };
}

/** The limits the server had before they were configuration (a connection built without a policy). */
export const DEFAULT_FRAME_LIMITS: FrameLimitSettings = {
  framesPerSecond: 10,
  frameBurst: 30,
  chatPerSecond: 2,
  chatBurst: 8,
  controlPerSecond: 1,
  controlBurst: 10,
  invalidPerSecond: 1,
  invalidBurst: 10,
  floodCloseAfter: 100,
};

/** 'ok': handle it; 'tell': refuse and say so; 'drop': refuse silently; 'close': close the connection. */
export type FrameVerdict = 'ok' | 'tell' | 'drop' | 'close';

const TELL_EVERY_MS = 1000;

export function createFrameLimits(settings: FrameLimitSettings, clock: Clock) {
  const overall = createTokenBucket(settings.frameBurst, settings.framesPerSecond, clock);
  const kinds: Record<FrameKind, ReturnType<typeof createTokenBucket>> = {
    chat: createTokenBucket(settings.chatBurst, settings.chatPerSecond, clock),
    control: createTokenBucket(settings.controlBurst, settings.controlPerSecond, clock),
    invalid: createTokenBucket(settings.invalidBurst, settings.invalidPerSecond, clock),
  };
  let refusedInARow = 0;
  let lastToldAt = -Infinity;

  function refused(always: boolean): FrameVerdict {
    refusedInARow++;
    if (refusedInARow >= settings.floodCloseAfter) return 'close';
    const now = clock.now();
    if (!always && now - lastToldAt < TELL_EVERY_MS) return 'drop';
    lastToldAt = now;
    return 'tell';
  }

  return {
    /** Any frame as it arrives, before parsing. */
    arrive(): FrameVerdict {
      return overall.take() ? 'ok' : refused(false);
    },
    /**
     * The frame once its kind is known. A refused valid frame is always answered (`arrive` bounds how
     * many); a refused invalid one at most once a second, like a flood.
     */
    kind(kind: FrameKind): FrameVerdict {
      if (kinds[kind].take()) {
        refusedInARow = 0;
        return 'ok';
      }
      return refused(kind !== 'invalid');
    },
    /** A frame that needs no kind bucket (binary audio: the voice input has its own). */
    accepted(): void {
      refusedInARow = 0;
    },
  };
}
export type FrameLimits = ReturnType<typeof createFrameLimits>;

// voiceEnd posts nothing new (its voiceStart took the chat token): a streamed clip costs one of each
const CONTROL_FRAMES = new Set(['setUsername', 'setLanguage', 'updateUsername', 'voiceEnd']);
/** The bucket a valid frame takes from: control frames, or (everything that posts) chat. */
export const frameKindOf = (type: string): FrameKind => (CONTROL_FRAMES.has(type) ? 'control' : 'chat');

/** Client frames are flat (an object holding at most a small object); anything deeper is not one. */
export const MAX_FRAME_DEPTH = 8;

/**
 * Parses a client frame, refusing one nested deeper than MAX_FRAME_DEPTH before JSON.parse builds it
 * (the scan is one pass over the text, skipping strings).
 */
export function parseFrameText(text: string): ReturnType<typeof parseClientFrame> {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_FRAME_DEPTH) {
        return {
          ok: false,
          code: 'bad_frame',
          message: `Frame is nested more than ${MAX_FRAME_DEPTH} levels deep.`,
        };
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return parseClientFrame(text);
}
