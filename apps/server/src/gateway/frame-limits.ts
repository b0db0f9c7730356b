import { parseClientFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { LogSampler } from '../log-sampler.js';

/*
 * Limits on what one connection may send (docs/decisions/0070-limits-on-every-door.md). Every inbound
 * frame, valid or not, text or binary, first takes a token from the connection's overall bucket, before
 * it is even parsed; then a valid frame takes one from its kind's bucket (chat, control) and an invalid one
 * from the invalid bucket. A refused frame is not handled. The client is told `rate_limited`, but at most
 * once a second for frames refused by the overall bucket or as invalid (answering each one would turn a flood into a
 * flood back), except a message: a frame naming a clientId is told every time, with it, so the outbox
 * sends it again; after `floodCloseAfter` refusals in a row the connection is closed (1008).
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

/** The four buckets' indexes in FrameLimits' arrays. */
const OVERALL = 0;
const BUCKET_OF: Record<FrameKind, number> = { chat: 1, control: 2, invalid: 3 };

/** Each settings' bursts and rates in bucket order, worked out once (settings are process-wide). */
const buckets = new WeakMap<FrameLimitSettings, { burst: number[]; perSecond: number[] }>();
function bucketsOf(s: FrameLimitSettings) {
  let known = buckets.get(s);
  if (!known) {
    known = {
      burst: [s.frameBurst, s.chatBurst, s.controlBurst, s.invalidBurst],
      perSecond: [s.framesPerSecond, s.chatPerSecond, s.controlPerSecond, s.invalidPerSecond],
    };
    buckets.set(s, known);
  }
  return known;
}

/**
 * One per connection, so kept small: the four token buckets (as in rate-limit.ts) are two
 * small arrays of one object, with its methods on the prototype, instead of four bucket objects with a
 * closure each.
 */
class FrameLimits {
  private readonly tokens: number[];
  private readonly last: number[];
  private refusedInARow = 0;
  private lastToldAt = -Infinity;

  constructor(
    private readonly settings: FrameLimitSettings,
    private readonly clock: Clock,
  ) {
    this.tokens = [...bucketsOf(settings).burst];
    const now = clock.now();
    this.last = [now, now, now, now];
  }

  private take(bucket: number): boolean {
    const { burst: bursts, perSecond: rates } = bucketsOf(this.settings);
    const burst = bursts[bucket]!;
    const perSecond = rates[bucket]!;
    const now = this.clock.now();
    const tokens = Math.min(burst, this.tokens[bucket]! + ((now - this.last[bucket]!) / 1000) * perSecond);
    this.last[bucket] = now;
    if (tokens < 1) {
      this.tokens[bucket] = tokens;
      return false;
    }
    this.tokens[bucket] = tokens - 1;
    return true;
  }

  private refused(always: boolean): FrameVerdict {
    this.refusedInARow++;
    if (this.refusedInARow >= this.settings.floodCloseAfter) return 'close';
    const now = this.clock.now();
    if (!always && now - this.lastToldAt < TELL_EVERY_MS) return 'drop';
    this.lastToldAt = now;
    return 'tell';
  }

  /** Any frame as it arrives, before parsing. */
  arrive(): FrameVerdict {
    return this.take(OVERALL) ? 'ok' : this.refused(false);
  }

  /**
   * The frame once its kind is known. A refused valid frame is always answered (`arrive` bounds how
   * many); a refused invalid one at most once a second, like a flood.
   */
  kind(kind: FrameKind): FrameVerdict {
    if (this.take(BUCKET_OF[kind])) {
      this.refusedInARow = 0;
      return 'ok';
    }
    return this.refused(kind !== 'invalid');
  }

  /** A frame that needs no kind bucket (binary audio: the voice input has its own). */
  accepted(): void {
    this.refusedInARow = 0;
  }
}
export type { FrameLimits };

export function createFrameLimits(settings: FrameLimitSettings, clock: Clock): FrameLimits {
  return new FrameLimits(settings, clock);
}

// voiceEnd posts nothing new (its voiceStart took the chat token): a streamed clip costs one of each
const CONTROL_FRAMES = new Set(['setUsername', 'setLanguage', 'updateUsername', 'voiceEnd', 'ping']);
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

/**
 * The clientId of a frame not parsed, found by a scan instead of JSON.parse: the overall limit refuses
 * frames before they cost a parse. A quote inside a JSON string is escaped, so a message's own text
 * cannot match.
 */
const CLIENT_ID_FIELD = /"clientId"\s*:\s*"([^"\\]{1,64})"/;
export function clientIdScanned(text: string): string | undefined {
  return CLIENT_ID_FIELD.exec(text)?.[1];
}

/** The clientId of a refused frame, when it has a usable one (the refusal names it). */
export function clientIdIn(text: string): string | undefined {
  try {
    const clientId = (JSON.parse(text) as { clientId?: unknown } | null)?.clientId;
    return typeof clientId === 'string' && clientId.length > 0 && clientId.length <= 64
      ? clientId
      : undefined;
  } catch {
    return undefined;
  }
}
