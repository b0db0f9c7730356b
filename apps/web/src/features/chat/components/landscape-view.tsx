import { userColour } from '@xtalk/protocol';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import { useMediaQuery } from '#web/lib/use-media-query';
import { landscapeContent } from '../utils/landscape';
import type { ChatItem } from '../utils/chat-items';

/** Touch devices held sideways (docs/product.md#the-room-screen). */
export const LANDSCAPE_QUERY = '(pointer: coarse) and (orientation: landscape)';

/** The big line shrinks as the text grows so a long message still fits a phone held sideways. */
function primarySize(text: string): string {
  if (text.length <= 40) return 'text-4xl sm:text-5xl';
  if (text.length <= 100) return 'text-3xl sm:text-4xl';
  if (text.length <= 220) return 'text-2xl sm:text-3xl';
  return 'text-xl sm:text-2xl';
}

export interface LandscapeViewProps {
  items: readonly ChatItem[];
  myUsername: string;
}

/**
 * Full-screen black view of the latest message on a touch device in landscape: its translation into the
 * other language large, the original text below. Renders nothing otherwise.
 */
export function LandscapeView({ items, myUsername }: LandscapeViewProps) {
  const active = useMediaQuery(LANDSCAPE_QUERY);
  if (!active) return null;
  return <LandscapeContentView items={items} myUsername={myUsername} />;
}

export function LandscapeContentView({ items, myUsername }: LandscapeViewProps) {
  const { t, language } = useI18n();
  const content = landscapeContent(items, language);
  return (
    <section
      data-testid="landscape-view"
      aria-label={t('landscape.label')}
      aria-live="polite"
      className="fixed inset-0 z-30 flex flex-col overflow-y-auto bg-black px-[max(2rem,env(safe-area-inset-left))] py-6 text-white"
    >
      {content ? (
        <div className="m-auto flex w-full max-w-5xl flex-col gap-4">
          <p
            className="truncate text-sm font-semibold"
            style={{
              color: userColour(content.message.username, content.message.username === myUsername).userColor,
            }}
          >
            <span className="brightness-200">{content.message.displayUsername}</span>
            {content.message.username === myUsername && (
              <span className="ml-1 font-normal text-neutral-500">{t('chat.you')}</span>
            )}
          </p>
          <p
            data-testid="landscape-primary"
            lang={content.primary.language}
            className={cn(
              'leading-tight font-semibold break-words whitespace-pre-wrap',
              primarySize(content.primary.text),
            )}
          >
            {content.primary.text}
            {!content.primary.done && (
              <span className="ml-1 inline-block animate-pulse text-indigo-400">▍</span>
            )}
          </p>
          {content.original && (
            <p
              data-testid="landscape-original"
              lang={content.original.language}
              className="border-t border-white/15 pt-4 text-lg leading-snug break-words whitespace-pre-wrap text-neutral-400 sm:text-xl"
            >
              {content.original.text}
            </p>
          )}
        </div>
      ) : (
        <p className="m-auto text-center text-lg text-neutral-400">{t('chat.empty')}</p>
      )}
    </section>
  );
}
