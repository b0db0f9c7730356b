import { useI18n } from '../../../lib/i18n';
import { joinNames } from '../utils/messages-reducer';

/** JOIN/LEAVE as a centred pill: '{name} has joined the chat' / '{A and B} have joined the chat'. */
export function SystemPill({ event, names }: { event: 'JOIN' | 'LEAVE'; names: string[] }) {
  const { t, language } = useI18n();
  const many = names.length > 1;
  const joined = joinNames(names, t('chat.and'), language === 'ja' ? '、' : ', ');
  const text =
    event === 'JOIN'
      ? many
        ? t('chat.joinedMany', { names: joined })
        : t('chat.joinedOne', { name: joined })
      : many
        ? t('chat.leftMany', { names: joined })
        : t('chat.leftOne', { name: joined });
  return (
    <div className="flex justify-center">
      <p
        data-testid="system-pill"
        data-event={event}
        className="max-w-[90%] rounded-full bg-slate-200/70 px-3 py-1 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300"
      >
        {text}
      </p>
    </div>
  );
}
