import { nameColours } from '@xtalk/protocol';
import type { CSSProperties } from 'react';
import { useI18n } from '#web/lib/i18n';
import type { LiveCaption } from '../utils/chat-items';

/**
 * What someone is saying while they still speak (protocol 3): under the speaker's name, a provisional
 * line (dashed, italic, marked 'live') with the translations of what they have finished so far. Their
 * message replaces it when they stop.
 */
export function LiveCaptionItem({ caption, isMe }: { caption: LiveCaption; isMe: boolean }) {
  const { t } = useI18n();
  const names = nameColours(caption.username, isMe);
  const translations = Object.entries(caption.translations).filter(
    ([language]) => language !== caption.language,
  );
  return (
    <article
      data-testid="live-caption"
      data-clip-id={caption.clipId}
      aria-live="off"
      className="flex gap-3 pl-12"
    >
      <div className="flex max-w-[85%] min-w-0 flex-col sm:max-w-[75%]">
        <header className="mb-1 flex items-baseline gap-2 px-1 text-xs">
          <span
            className="truncate font-semibold text-(--name-light) dark:text-(--name-dark)"
            style={{ '--name-light': names.light, '--name-dark': names.dark } as CSSProperties}
          >
            <bdi>{caption.displayUsername}</bdi>
          </span>
          <span className="inline-flex items-center gap-1 text-rose-700 dark:text-rose-300">
            <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-rose-600" />
            {t('caption.live')}
          </span>
        </header>
        <div className="rounded-3xl rounded-tl-md border border-dashed border-slate-300 px-4 py-3 italic dark:border-slate-700">
          {translations.map(([language, text]) => (
            <p
              key={language}
              lang={language}
              dir="auto"
              data-testid="live-caption-translation"
              className="mb-1 text-slate-800 dark:text-slate-100"
            >
              {text}
            </p>
          ))}
          <p
            lang={caption.language}
            dir="auto"
            data-testid="live-caption-text"
            className="text-slate-600 dark:text-slate-300"
          >
            {caption.text}
          </p>
        </div>
      </div>
    </article>
  );
}
