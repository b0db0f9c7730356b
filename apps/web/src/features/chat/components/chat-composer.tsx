import { MAX_MESSAGE_LENGTH } from '@xtalk/protocol';
import { SendHorizontal } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useI18n } from '#web/lib/i18n';
import { TypingIndicator } from './typing-indicator';

export interface ChatComposerProps {
  /** Send a text; returns false when it could not be sent (then the text is kept). */
  onSend: (text: string) => boolean;
  isTyping: boolean;
  /** Slot for the mic button (voice input is not built yet). */
  micSlot?: ReactNode;
  /** Slot for the JA/EN switch. */
  languageSlot?: ReactNode;
  /** Nothing can be sent: there is no room to send to (a link to one that does not exist). */
  disabled?: boolean;
}

/** The bottom bar: text input and Send (Enter sends), the language switch and the typing indicator. */
export function ChatComposer({
  onSend,
  isTyping,
  micSlot,
  languageSlot,
  disabled = false,
}: ChatComposerProps) {
  const { t } = useI18n();
  const [text, setText] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    if (onSend(message)) setText('');
  };

  return (
    <div className="mx-auto w-full max-w-4xl px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-6">
      <div className="flex h-6 items-center justify-center">
        <TypingIndicator active={isTyping} label={t('chat.typing')} />
      </div>
      <form onSubmit={submit} className="flex items-center gap-1.5 sm:gap-2">
        {micSlot}
        <div className="flex min-w-0 flex-1 items-center rounded-full has-[input:disabled]:opacity-50 border border-slate-300 bg-white py-1 pr-1 pl-3 shadow-sm sm:pl-4 focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-200 dark:border-slate-700 dark:bg-slate-900 dark:focus-within:ring-indigo-900">
          <input
            data-testid="chat-input"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('chat.placeholder')}
            maxLength={MAX_MESSAGE_LENGTH}
            enterKeyHint="send"
            disabled={disabled}
            aria-label={t('chat.placeholder')}
            className="min-w-0 flex-1 bg-transparent py-1.5 disabled:cursor-not-allowed text-base text-slate-900 placeholder:text-slate-500 focus:outline-none dark:text-slate-100 dark:placeholder:text-slate-400"
          />
          <button
            type="submit"
            data-testid="send-button"
            disabled={disabled || text.trim() === ''}
            aria-label={t('chat.send')}
            className="inline-flex h-9 shrink-0 cursor-pointer items-center gap-1.5 rounded-full bg-indigo-600 px-3 text-sm sm:px-4 font-semibold text-white hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-40 dark:bg-indigo-500"
          >
            <SendHorizontal className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">{t('chat.send')}</span>
          </button>
        </div>
        {languageSlot}
      </form>
    </div>
  );
}
