import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn';
import type { ChatMessage } from '../utils/chat-items';
import type { visibleTranslations } from '../utils/message-display';

type Translation = ReturnType<typeof visibleTranslations>[number];

/** One translation above the original, with a cursor while it still streams in. */
function TranslationLine({ translation }: { translation: Translation }) {
  return (
    <p
      data-testid="translation"
      data-lang={translation.language}
      data-complete={translation.done || undefined}
      lang={translation.language}
      dir="auto"
      className="text-[15px] leading-relaxed font-medium break-words whitespace-pre-wrap text-slate-900 dark:text-slate-50"
    >
      {translation.text}
      {!translation.done && <span className="ml-0.5 inline-block animate-pulse text-indigo-500">▍</span>}
    </p>
  );
}

/**
 * The message's bubble: its translations above the original transcription, or, while its author
 * corrects it, the `editor` in the original's place.
 */
export function MessageBubble({
  message,
  translations,
  isMe,
  speaking,
  editor,
}: {
  message: ChatMessage;
  translations: Translation[];
  isMe: boolean;
  speaking?: boolean | undefined;
  editor?: ReactNode;
}) {
  return (
    <div
      className={cn(
        'rounded-3xl px-4 py-3 shadow-sm ring-1',
        speaking && 'ring-2 ring-indigo-400! dark:ring-indigo-500!',
        isMe
          ? 'rounded-tr-md bg-indigo-50 ring-indigo-100 dark:bg-indigo-950/60 dark:ring-indigo-900'
          : 'rounded-tl-md bg-white ring-slate-200 dark:bg-slate-900 dark:ring-slate-800',
      )}
    >
      {translations.map((translation) => (
        <TranslationLine key={translation.language} translation={translation} />
      ))}
      {editor ? (
        <div className={cn(translations.length > 0 && 'mt-2 border-t border-slate-200/80 pt-2')}>
          {editor}
        </div>
      ) : (
        <p
          data-testid="original"
          lang={message.language}
          dir="auto"
          className={cn(
            'break-words whitespace-pre-wrap',
            translations.length > 0
              ? 'mt-2 border-t border-slate-200/80 pt-2 text-sm text-slate-600 dark:border-slate-700/80 dark:text-slate-400'
              : 'text-[15px] leading-relaxed text-slate-900 dark:text-slate-50',
          )}
        >
          {message.message}
        </p>
      )}
    </div>
  );
}
