import type { Clock } from '../clock.js';
import { createMessageChanges } from '../rooms/index.js';
import { createMessagesRepo } from '../rooms/index.js';
import type { Db } from '../store/index.js';
import type { TranslationStore } from '../translation/index.js';

/**
 * What the translation service stores and reads, in the database's background lane (decision 0117): a
 * translation's or note's write and the context read never hold up a chat insert on PGlite.
 */
export function translationStore(db: Db, clock: Clock): TranslationStore {
  const background: Db = { ...db, ...db.background };
  const { recentMessages } = createMessagesRepo(background, clock);
  const { saveTranslation, saveNote, saveTranslationFailure } = createMessageChanges(background);
  return { recentMessages, saveTranslation, saveNote, saveTranslationFailure };
}
