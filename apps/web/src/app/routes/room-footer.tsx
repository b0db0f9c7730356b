import type { UiLanguage } from '@xtalk/protocol';
import { LanguageToggle } from '../../components/language-toggle';
import { ChatComposer } from '../../features/chat/components/chat-composer';
import { VoiceControls } from '../../features/voice/components/voice-controls';
import type { useRecorder } from '../../features/voice/hooks/use-recorder';
import { useI18n } from '../../lib/i18n';

export interface RoomFooterProps {
  onSend(text: string): boolean;
  isTyping: boolean;
  recorder: ReturnType<typeof useRecorder>;
  isConnected: boolean;
  onLanguage(language: UiLanguage): void;
}

/** The composer with its microphone and language toggle, and the line under it. */
export function RoomFooter({ onSend, isTyping, recorder, isConnected, onLanguage }: RoomFooterProps) {
  const { t } = useI18n();
  return (
    <footer className="border-t border-slate-200 bg-white/95 dark:border-slate-800 dark:bg-slate-900/95">
      <ChatComposer
        onSend={onSend}
        isTyping={isTyping}
        micSlot={
          <VoiceControls
            state={recorder.state}
            elapsedSeconds={recorder.elapsedSeconds}
            analyser={recorder.analyser}
            onTap={recorder.tap}
          />
        }
        languageSlot={<LanguageToggle disabled={!isConnected} onChange={onLanguage} />}
      />
      <p className="mx-auto max-w-4xl px-4 pb-2 text-center text-[11px] text-slate-600 dark:text-slate-400">
        {t('room.footer')}
      </p>
    </footer>
  );
}
