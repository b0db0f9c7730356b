import type { ServerFrame } from '@xtalk/protocol';
import { startTransition, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { localized, toast, words } from '#web/lib/toast';
import { balanceStore } from '#web/features/credits/hooks/use-balance';
import { useCatchUp } from '#web/features/catch-up/hooks/use-catch-up';
import { tutorialFrames } from '#web/features/chat/utils/tutorial';
import type { useTypingIndicator } from '#web/features/chat/hooks/use-typing-indicator';
import { initialChatState } from '#web/features/chat/utils/chat-items';
import { chatReducer } from '#web/features/chat/utils/messages-reducer';
import {
  addFailure,
  failurePart,
  failureText,
  type FailureEvent,
} from '#web/features/room/utils/failure-toast';
import { listeningLanguage } from '#web/features/room/utils/listening';
import { frameErrorText } from '#web/lib/error-text';
import { noticeText } from '#web/lib/notice-text';
import { getLanguage, useI18n } from '#web/lib/i18n';
import { StorageKey, readString, writeString } from '#web/lib/storage';

const FAILURE_TOAST = 'engine-failure';

/**
 * The room's frames into the chat state, plus what a frame means beyond the list: the balance, the first
 * visit's tutorial, the glossary's version, "Catch me up", and toasts for renames and errors.
 */
export function useRoomFrames(typing: ReturnType<typeof useTypingIndicator>) {
  const [chat, dispatch] = useReducer(chatReducer, initialChatState);
  // Whether this session's replay brought any message: a ref, because the replay and READY arrive in one
  // burst, before a re-render could update a closure over the chat state.
  const hasChatLog = useRef(false);
  // READY (protocol 3): the languages the server translates into, how long a correction is possible, and
  // so the language this person listens in
  const [room, setRoom] = useState({ languages: [] as readonly string[], editWindowMs: 0 });
  const [listening, setListening] = useState(() => listeningLanguage());
  // the engine failures of one event share one toast, the real cause first
  const failures = useRef<FailureEvent | undefined>(undefined);
  // When this session's tutorial was made: its messages' ids, so a language switch retells them in place
  const tutorialAt = useRef<number | undefined>(undefined);
  const { language } = useI18n();
  useEffect(() => {
    if (tutorialAt.current === undefined) return;
    for (const tutorial of tutorialFrames(language, tutorialAt.current))
      dispatch({ type: 'frame', frame: tutorial });
  }, [language]);
  // the room glossary's version as the room last announced it (the dialog fetches a newer one)
  const [glossaryVersion, setGlossaryVersion] = useState(0);
  const catchUp = useCatchUp();
  const catchUpFrame = catchUp.onFrame;
  const onFrame = useCallback(
    (frame: ServerFrame) => {
      catchUpFrame(frame);
      // The list's update is a transition: React renders it in slices that yield to input and painting,
      // so a replay or a burst of frames never holds the page for long (typing stays urgent).
      startTransition(() => dispatch({ type: 'frame', frame }));
      switch (frame.type) {
        case 'message':
          hasChatLog.current = true;
          typing.clear();
          break;
        case 'system':
          if (frame.message === 'BALANCE' && frame.balance) balanceStore.set(frame.balance);
          if (frame.message === 'READY') {
            setRoom({
              languages: frame.languages ?? [],
              editWindowMs: (frame.editWindowSeconds ?? 0) * 1000,
            });
            setListening(listeningLanguage());
          }
          // On a first connection with no chat log, XTalkChan's tutorial, for this user only.
          if (frame.message === 'READY' && !hasChatLog.current && readString(StorageKey.tut) !== '1') {
            writeString(StorageKey.tut, '1');
            tutorialAt.current = Date.now();
            for (const tutorial of tutorialFrames(getLanguage(), tutorialAt.current))
              dispatch({ type: 'frame', frame: tutorial });
          }
          break;
        case 'glossaryUpdated':
          setGlossaryVersion(frame.version);
          toast(words('glossary.updated'));
          break;
        case 'usernameUpdate':
          // a rename whose author deleted their account keeps its place in the log, not its names
          if (frame.username !== '') {
            toast(words('chat.renamed', { old: frame.oldDisplayUsername, name: frame.displayUsername }));
          }
          break;
        case 'error':
          // Worded here by its code, in the interface language. 'notice' is information
          // about the room's engines and credits, worded by its kind; 'no_speech' a plain outcome.
          if (frame.code === 'notice') {
            const part = failurePart(frame);
            if (!part) toast.info(localized((language) => noticeText(language, frame)));
            else {
              const event = addFailure(failures.current, part, Date.now());
              failures.current = event;
              toast.info(
                localized((language) => failureText(language, event)),
                { id: FAILURE_TOAST },
              );
            }
          } else if (frame.code === 'no_speech') toast(words('voice.noSpeech'));
          // one toast per code: the same refusal of several messages (too fast) does not stack
          else
            toast.error(
              localized((language) => frameErrorText(language, frame.code)),
              { id: `error-${frame.code}` },
            );
          break;
      }
    },
    [typing, catchUpFrame],
  );
  /** A new session (another room, or a resume that could not be): the list starts over. */
  const resetCatchUp = catchUp.reset;
  const onNewSession = useCallback(() => {
    hasChatLog.current = false;
    tutorialAt.current = undefined;
    dispatch({ type: 'reset' });
    resetCatchUp();
  }, [resetCatchUp]);
  return { chat, onFrame, onNewSession, room, listening, setListening, glossaryVersion, catchUp };
}
