import type { GlossaryTerm, Logger } from '../ai/index.js';
import type { Glossary, GlossaryPort } from './ports.js';

/**
 * The room's glossary for one piece of work; none (and a warning) when it cannot be read: the message is
 * still translated, only without the room's renderings.
 */
export async function roomGlossary(
  port: GlossaryPort | undefined,
  roomId: string,
  logger: Logger,
): Promise<Glossary | undefined> {
  if (!port) return undefined;
  try {
    return await port.forRoom(roomId);
  } catch (error) {
    logger.warn({ err: error, roomId }, 'translation: could not read the room glossary; translating without');
    return undefined;
  }
}

/** The terms of `text` for `target`, or undefined when none occurs (the request then names no glossary). */
export function termsOf(
  glossary: Glossary | undefined,
  text: string,
  target: string,
): GlossaryTerm[] | undefined {
  const terms = glossary?.termsFor(text, target) ?? [];
  return terms.length > 0 ? terms : undefined;
}
