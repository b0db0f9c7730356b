import type { UiLanguage } from '@xtalk/protocol';
import { LanguageToggle } from '#web/components/language-toggle';
import { ListeningPicker } from '#web/features/room/components/listening-picker';
import { hasMoreLanguages, listeningLanguage } from '#web/features/room/utils/listening';
import { ChatComposer } from '#web/features/chat/components/chat-composer';
import { VoiceControls } from '#web/features/voice/components/voice-controls';
import type { useRecorder } from '#web/features/voice/hooks/use-recorder';
import { useI18n } from '#web/lib/i18n';
import { useToastFloor } from './use-toast-floor';

export interface RoomFooterProps {
  onSend(text: string): boolean;
  isTyping: boolean;
  recorder: ReturnType<typeof useRecorder>;
  isConnected: boolean;
  onLanguage(language: UiLanguage): void;
  /** The server's languages (READY); with more than EN/JA a listening language is picked among them. */
  languages: readonly string[];
  listening: string;
  onListening(language: string): void;
  /** No room (a link to one that does not exist): nothing to type or record into. */
  noRoom?: boolean;
}

/**
 * The footer's language handlers: the interface language (the listening language follows it unless one
 * was picked) and a listening language picked from the server's list; each tells the room and the page.
 */
export function listeningHandlers(
  connection: { sendLanguage(language: UiLanguage): void; chooseListening(language: string): void },
  setListening: (language: string) => void,
): Pick<RoomFooterProps, 'onLanguage' | 'onListening'> {
  return {
    onLanguage(language) {
      connection.sendLanguage(language);
      setListening(listeningLanguage(language));
    },
    onListening(language) {
      connection.chooseListening(language);
      setListening(language);
    },
  };
}

/** The composer with its microphone and language toggle, and the line under it. */
export function RoomFooter({
  onSend,
  isTyping,
  recorder,
  isConnected,
  onLanguage,
  languages,
  listening,
  onListening,
  noRoom = false,
}: RoomFooterProps) {
  const { t } = useI18n();
  const toastFloor = useToastFloor();
  return (
    <footer
      ref={toastFloor}
      className="border-t border-slate-200 bg-white/95 dark:border-slate-800 dark:bg-slate-900/95"
    >
      <ChatComposer
        onSend={onSend}
        isTyping={isTyping}
        disabled={noRoom}
        micSlot={
          <VoiceControls
            state={recorder.state}
            elapsedSeconds={recorder.elapsedSeconds}
            analyser={recorder.analyser}
            onTap={recorder.tap}
            disabled={noRoom}
          />
        }
        languageSlot={
          <>
            <LanguageToggle disabled={!isConnected} onChange={onLanguage} />
            {hasMoreLanguages(languages) && (
              <ListeningPicker
                languages={languages}
                value={listening}
                disabled={!isConnected}
                onChange={onListening}
              />
            )}
          </>
        }
      />
      <p className="mx-auto max-w-4xl px-4 pb-2 text-center text-[11px] text-slate-600 dark:text-slate-400">
        {t('room.footer')}
      </p>
    </footer>
  );
}
