import { useRef, useState } from 'react';
import { cn } from '#web/lib/cn';
import type { ChatMessage } from '../utils/chat-items';
import { stripQuotes, visibleTranslations } from '../utils/message-display';
import { FailedMark } from './failed-mark';
import { MessageAvatar } from './message-avatar';
import { MessageBubble } from './message-bubble';
import { EditButton, MessageEditor } from './message-editor';
import { MessageHeader } from './message-header';
import { MessageHint } from './message-hint';

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

/**
 * One message: translations into the other languages above the original transcription,
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
  const [showNote, setShowNote] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEditor = () => {
    setEditing(false);
    // back to where the keyboard user was
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const translations = visibleTranslations(message, listening);
  const note = message.note ? stripQuotes(message.note) : '';
  const canHint = !isMe && note !== '';
  // the listener sees the mark for their language; the author, whose languages are the others', for any
  const failed = isMe ? !!message.failed : !!listening && !!message.failed?.includes(listening);
  const editor = editing && onEdit && (
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
  );

  return (
    <article
      data-testid="message"
      data-message-id={message.id}
      data-me={isMe || undefined}
      data-tutorial={message.isTutorial || undefined}
      data-speaking={speaking || undefined}
      className={cn('flex gap-3', isMe && 'flex-row-reverse')}
    >
      <MessageAvatar username={message.username} displayUsername={message.displayUsername} isMe={isMe} />
      <div className={cn('flex max-w-[85%] min-w-0 flex-col sm:max-w-[75%]', isMe && 'items-end')}>
        <MessageHeader message={message} isMe={isMe} now={now} speaking={speaking} />
        <MessageBubble
          message={message}
          translations={translations}
          isMe={isMe}
          speaking={speaking}
          editor={editor}
        />
        {failed && (
          <FailedMark onRetry={isMe && onRetranslate ? () => onRetranslate(message.id) : undefined} />
        )}
        {onEdit && !editing && <EditButton ref={editButton} onClick={() => setEditing(true)} />}
        {canHint && <MessageHint note={note} showNote={showNote} setShowNote={setShowNote} />}
      </div>
    </article>
  );
}
