import type { Clock } from '../clock.js';
import type { Glossary, GlossaryPort } from '../translation/index.js';
import { termsFor, type RoomGlossary } from './match.js';
import type { GlossaryRepo } from './repo.js';

/** How long a room's member names are reused before they are read again. */
const NAMES_TTL_MS = 30_000;
/** The names of this many most recent members are kept from translation. */
export const MEMBER_NAMES_LIMIT = 500;

/**
 * The translation service's view of the glossaries: the room's entries read from the store for every
 * message (a change made on any node applies to the next message at once), and its members' names,
 * which change rarely, reused for a while.
 */
export function createGlossarySource(deps: {
  repo: GlossaryRepo;
  memberNames(roomId: string): Promise<string[]>;
  clock: Clock;
}): GlossaryPort & { roomGlossary(roomId: string): Promise<RoomGlossary> } {
  const names = new Map<string, { at: number; names: Promise<string[]> }>();

  function namesOf(roomId: string): Promise<string[]> {
    const now = deps.clock.now();
    const cached = names.get(roomId);
    if (cached && now - cached.at < NAMES_TTL_MS) return cached.names;
    const read = deps.memberNames(roomId);
    names.set(roomId, { at: now, names: read });
    read.catch(() => names.delete(roomId));
    // a bounded cache: the oldest room goes first
    if (names.size > 1000) names.delete(names.keys().next().value!);
    return read;
  }

  async function roomGlossary(roomId: string): Promise<RoomGlossary> {
    const [glossary, memberNames] = await Promise.all([deps.repo.read(roomId), namesOf(roomId)]);
    return { entries: glossary.entries, names: memberNames };
  }

  return {
    roomGlossary,
    async forRoom(roomId: string): Promise<Glossary> {
      const glossary = await roomGlossary(roomId);
      return { termsFor: (text, target) => termsFor(glossary, text, target) };
    },
  };
}
