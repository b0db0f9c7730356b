import { MessagesSquare } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useI18n } from '#web/lib/i18n';
import { useNow } from '../hooks/use-now';
import type { ChatItem, LiveCaption } from '../utils/chat-items';
import { toDisplayItems } from '../utils/display-items';
import { LiveCaptionItem } from './live-caption';
import { MessageItem } from './message-item';
import { PendingMessageItem, type PendingMessage } from './pending-message';
import { SystemPill } from './system-pill';

export interface MessageListProps {
  items: readonly ChatItem[];
  myUsername: string;
  isReady: boolean;
  /** Own messages not yet acknowledged, oldest first; shown above the newest. */
  pending?: readonly PendingMessage[];
  onRetry?: (clientId: string) => void;
  onDiscard?: (clientId: string) => void;
  /** The listener's language (its translations come first). */
  listening?: string | undefined;
  /** Sends a correction of an own message; without it messages cannot be edited here. */
  onEdit?: ((id: number, text: string) => boolean) | undefined;
  /** Asks for the failed translations of the viewer's own message again. */
  onRetranslate?: ((id: number) => void) | undefined;
  /** How long after sending the author may correct a message (ms); the server's READY says. */
  editWindowMs?: number | undefined;
  /** Streamed voice clips still being spoken (protocol 3), shown above the newest message. */
  captions?: Readonly<Record<string, LiveCaption>>;
  /** The message whose translation is being spoken. */
  speakingId?: number | undefined;
}

const noop = () => undefined;

/** Newest at the top; scrolls back to the top on a new message and when the room becomes ready. */
export function MessageList({
  items,
  myUsername,
  isReady,
  pending = [],
  onRetry = noop,
  onDiscard = noop,
  listening,
  onEdit,
  onRetranslate,
  editWindowMs = 0,
  captions,
  speakingId,
}: MessageListProps) {
  const live = Object.values(captions ?? {}).filter(
    (caption) => caption.text !== '' && caption.displayUsername !== '',
  );
  const { t } = useI18n();
  const now = useNow();
  const scroller = useRef<HTMLDivElement>(null);
  const display = useMemo(() => toDisplayItems(items, myUsername), [items, myUsername]);

  const mounted = useRef(false);
  useEffect(() => {
    // A list that just mounted is at the top already; and the scroll waits for the next frame, whose
    // layout it then uses, instead of forcing one in the middle of React's commit (decision 0084).
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const frame = requestAnimationFrame(() => scroller.current?.scrollTo?.({ top: 0, behavior: 'smooth' }));
    return () => cancelAnimationFrame(frame);
  }, [items.length, isReady, pending.length]);

  return (
    <div
      ref={scroller}
      data-testid="message-list"
      // Focusable, so keyboard users can scroll the log (axe: scrollable-region-focusable)
      tabIndex={0}
      role="log"
      aria-label={t('landscape.label')}
      aria-live="polite"
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none focus-visible:ring-inset"
    >
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-5 px-3 py-5 sm:px-6">
        {live.map((caption) => (
          <LiveCaptionItem key={caption.clipId} caption={caption} isMe={caption.username === myUsername} />
        ))}
        {[...pending].reverse().map((message) => (
          <PendingMessageItem
            key={message.clientId}
            message={message}
            onRetry={onRetry}
            onDiscard={onDiscard}
          />
        ))}
        {display.length === 0 && pending.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-24 text-center text-slate-600 dark:text-slate-400">
            <MessagesSquare className="size-10" aria-hidden="true" />
            <p className="text-sm">{t('chat.empty')}</p>
          </div>
        ) : (
          display.map((item) =>
            item.kind === 'message' ? (
              <MessageItem
                key={item.message.id}
                message={item.message}
                isMe={item.message.username === myUsername}
                now={now}
                listening={listening}
                speaking={item.message.id === speakingId}
                onEdit={
                  item.message.username === myUsername &&
                  !item.message.isTutorial &&
                  now - item.message.id < editWindowMs
                    ? onEdit
                    : undefined
                }
                onRetranslate={onRetranslate}
              />
            ) : (
              <SystemPill key={item.id} {...item} />
            ),
          )
        )}
      </div>
    </div>
  );
}
