import type { GlossaryEntry } from '@xtalk/protocol';
import { longestFirst, termsPattern } from '../ai/index.js';
import type { GlossaryTerm } from '../ai/index.js';

/** What a room's translations obey: its glossary's entries and its members' names (never translated). */
export interface RoomGlossary {
  entries: readonly GlossaryEntry[];
  names: readonly string[];
}

export const EMPTY_GLOSSARY: RoomGlossary = { entries: [], names: [] };

/** What `target` must say for an entry: its rendering, or the term as written where it has none. */
function renderingOf(entry: GlossaryEntry, target: string): string {
  return entry.renderings[target] ?? entry.term;
}

/**
 * Exactly the glossary's terms that occur in `text`, each with its rendering in `target`, longest first
 * (a term inside a longer one that matched is not counted). A member's name is a term rendered as itself.
 * Empty when none occurs: a request then carries no glossary at all.
 */
export function termsFor(glossary: RoomGlossary, text: string, target: string): GlossaryTerm[] {
  const candidates: GlossaryTerm[] = [
    ...glossary.entries.map((entry) => ({ term: entry.term, rendering: renderingOf(entry, target) })),
    ...glossary.names.map((name) => ({ term: name, rendering: name })),
  ];
  const ordered = longestFirst(candidates);
  const pattern = termsPattern(ordered.map((candidate) => candidate.term));
  if (!pattern) return [];
  const found = new Map<string, GlossaryTerm>();
  for (const match of text.matchAll(pattern)) {
    const index = match.slice(1).findIndex((group) => group !== undefined);
    const candidate = ordered[index];
    if (candidate && !found.has(candidate.term.toLowerCase()))
      found.set(candidate.term.toLowerCase(), candidate);
  }
  return longestFirst([...found.values()]);
}
