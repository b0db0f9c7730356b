import { nameColours, type UiLanguage } from '@xtalk/protocol';
import { Volume2 } from 'lucide-react';
import type { CSSProperties } from 'react';
import { useI18n } from '#web/lib/i18n';
import { cn } from '#web/lib/cn';
import { formatRelativeTime } from '#web/lib/time';
import type { ChatMessage } from '../utils/chat-items';
import { EditedMark } from './message-editor';

/** A message's header: the author ('(You)' for own), the relative time, an edit mark, and whether it is spoken now. */
export function MessageHeader({
  message,
  isMe,
  now,
  speaking,
}: {
  message: ChatMessage;
  isMe: boolean;
  now: number;
  speaking?: boolean | undefined;
}) {
  const { t, language } = useI18n();
  const names = nameColours(message.username, isMe);
  return (
    <header className={cn('mb-1 flex items-baseline gap-2 px-1 text-xs', isMe && 'flex-row-reverse')}>
      {/* Readable in both themes (WCAG AA), same hue as the avatar */}
      <span
        className="truncate font-semibold text-(--name-light) dark:text-(--name-dark)"
        style={{ '--name-light': names.light, '--name-dark': names.dark } as CSSProperties}
      >
        {/* isolated: bidi controls in a name cannot reorder what is around it */}
        <bdi data-testid="author">{message.displayUsername}</bdi>
        {isMe && <span className="ml-1 font-normal text-slate-500 dark:text-slate-400">{t('chat.you')}</span>}
      </span>
      <time
        dateTime={new Date(message.timestamp).toISOString()}
        className="shrink-0 text-slate-600 dark:text-slate-400"
      >
        {formatRelativeTime(message.timestamp, language as UiLanguage, now)}
      </time>
      {message.editedAt !== undefined && <EditedMark editedAt={message.editedAt} now={now} />}
      {speaking && (
        <span className="inline-flex shrink-0 items-center gap-1 self-center font-medium text-indigo-700 dark:text-indigo-300">
          <Volume2 className="size-3.5 animate-pulse" aria-hidden="true" />
          {t('speech.speaking')}
        </span>
      )}
    </header>
  );
}
