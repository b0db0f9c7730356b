import { SYSTEM_DISPLAY_NAME, SYSTEM_USERNAME } from './constants.js';
import { ADJECTIVES, NOUNS } from './name-words.js';

/** FNV-1a over the UTF-16 code units: tiny, stable across runtimes, good enough spread for names and hues. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The anonymous display name of a username: an adjective and a noun joined without a space. */
export function generatedDisplayName(username: string): string {
  if (username === SYSTEM_USERNAME) return SYSTEM_DISPLAY_NAME;
  const hash = hashString(username);
  const adjective = ADJECTIVES[hash % ADJECTIVES.length]!;
  const noun = NOUNS[Math.floor(hash / ADJECTIVES.length) % NOUNS.length]!;
  return adjective + noun;
}

const generatedNamePattern = new RegExp(`^(${ADJECTIVES.join('|')})(${NOUNS.join('|')})$`, 'i');

/** Whether a name has the adjective+noun shape of a generated one (case-insensitive). */
export function isGeneratedName(name: string): boolean {
  return generatedNamePattern.test(name);
}

/** The custom-name test: empty, the mascot's names and generated names are not custom. */
export function isCustomName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  if (lower === '') return false;
  if (lower === SYSTEM_USERNAME || lower === SYSTEM_USERNAME.slice(1)) return false;
  return !isGeneratedName(name.trim());
}

export interface UserColour {
  userColor: string;
  userColorDarker: string;
}

/** Avatar colours: own messages a fixed blue, the mascot yellow, others from the hash. */
export function userColour(username: string, isMe: boolean): UserColour {
  if (username === SYSTEM_USERNAME)
    return { userColor: 'hsl(48, 89%, 50%)', userColorDarker: 'hsl(48, 89%, 40%)' };
  if (isMe) return { userColor: 'hsl(216, 76%, 36%)', userColorDarker: 'hsl(216, 76%, 26%)' };
  const hash = hashString(username);
  const hue = hash % 360;
  const saturation = 60 + (Math.floor(hash / 360) % 21);
  const lightness = 30 + (Math.floor(hash / 7560) % 11);
  return {
    userColor: `hsl(${hue}, ${saturation}%, ${lightness}%)`,
    userColorDarker: `hsl(${hue}, ${saturation}%, ${Math.max(lightness - 10, 0)}%)`,
  };
}
