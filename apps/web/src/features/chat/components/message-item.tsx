import { avatarColours } from '@xtalk/protocol';
import { Lightbulb } from 'lucide-react';
import { useRef, useState } from 'react';
import { useI18n } from '../../../lib/i18n';
import { cn } from '../../../lib/cn';
import type { ChatMessage } from '../utils/chat-items';
import { stripQuotes, visibleTranslations } from '../utils/message-display';
import { EditButton, MessageEditor } from './message-editor';
import { MessageHeader } from './message-header';
import { FailedMark } from './failed-mark';

export interface MessageItemProps {
  message: ChatMessage;
  isMe: boolean;
  now: number;
  /** The listener's language: its translation comes first. */
  listening?: string | undefined;
  /** Given when the viewer may correct this message (their own, within the edit window). */
  onEdit?: ((id: number, text: string) => boolean) | undefined;
  /** Its translation is being spoken now. */
  speaking?: boolean;
  /** Given to the author: asks for the message's failed translations again. */
  onRetranslate?: ((id: number) => void) | undefined;
}

function initials(name: string): string {
  const capitals = name.match(/[A-Z]/g);
  return (capitals && capitals.length >= 2 ? capitals.slice(0, 2).join('') : name.slice(0, 2)).toUpperCase();
}

/**
 * One message: translations into the other languages above the original transcription (spec section 2),
 * the author ('(You)' for own), the relative time, and a Hint toggle on others' messages with a note.
 * Names and texts are bidi-isolated (<bdi>, dir="auto"): a right-to-left override or other bidi control
 * in them stays inside them and cannot reorder the name, the time or the text next to it.
 */
export function MessageItem({
  message,
  isMe,
  now,
  listening,
  onEdit,
  speaking,
  onRetranslate,
}: MessageItemProps) {
  const { t } = useI18n();
  const [showNote, setShowNote] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEditor = () => {
    setEditing(false);
    // back to where the keyboard user was
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const avatar = avatarColours(message.username, isMe);
  const translations = visibleTranslations(message, listening);
  const note = message.note ? stripQuotes(message.note) : '';
  const canHint = !isMe && note !== '';
  // the listener sees the mark for their language; the author, whose languages are the others', for any
  const failed = isMe ? !!message.failed : !!listening && !!message.failed?.includes(listening);

  return (
    <article
      data-testid="message"
      data-message-id={message.id}
      data-me={isMe || undefined}
      data-tutorial={message.isTutorial || undefined}
      data-speaking={speaking || undefined}
      className={cn('flex gap-3', isMe && 'flex-row-reverse')}
    >
      <div
        aria-hidden="true"
        className="mt-5 flex size-9 shrink-0 items-center justify-center rounded-full text-xs font-bold shadow-sm"
        style={{ backgroundColor: avatar.background, color: avatar.text }}
      >
        {initials(message.displayUsername)}
      </div>
      <div className={cn('flex max-w-[85%] min-w-0 flex-col sm:max-w-[75%]', isMe && 'items-end')}>
        <MessageHeader message={message} isMe={isMe} now={now} speaking={speaking} />
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
            <p
              key={translation.language}
              data-testid="translation"
              data-lang={translation.language}
              data-complete={translation.done || undefined}
              lang={translation.language}
              dir="auto"
              className="text-[15px] leading-relaxed font-medium break-words whitespace-pre-wrap text-slate-900 dark:text-slate-50"
            >
              {translation.text}
              {!translation.done && (
                <span className="ml-0.5 inline-block animate-pulse text-indigo-500">▍</span>
              )}
            </p>
          ))}
          {editing && onEdit ? (
            <div className={cn(translations.length > 0 && 'mt-2 border-t border-slate-200/80 pt-2')}>
              <MessageEditor
                initial={message.message}
                language={message.language}
                onCancel={closeEditor}
                onSave={(text) => {
                  const sent = onEdit(message.id, text);
                  if (sent) closeEditor();
                  return sent;
                }}
              />
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
        {failed && (
          <FailedMark onRetry={isMe && onRetranslate ? () => onRetranslate(message.id) : undefined} />
        )}
        {onEdit && !editing && <EditButton ref={editButton} onClick={() => setEditing(true)} />}
        {canHint && (
          <div className="mt-1.5 px-1">
            <button
              type="button"
              data-testid="hint-toggle"
              aria-expanded={showNote}
              onClick={() => setShowNote((value) => !value)}
              className={cn(
                'inline-flex cursor-pointer items-center gap-1 rounded-full px-2.5 py-1 text-xs font-medium transition-colors',
                showNote
                  ? 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200'
                  : 'text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800',
              )}
            >
              <Lightbulb className="size-3.5" aria-hidden="true" />
              {showNote ? t('chat.hideHint') : t('chat.hint')}
            </button>
            {showNote && (
              <p
                data-testid="note"
                dir="auto"
                className="mt-1.5 rounded-2xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:text-amber-100 dark:ring-amber-900"
              >
                {note}
              </p>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
