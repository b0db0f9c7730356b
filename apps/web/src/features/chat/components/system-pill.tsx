import { useI18n } from '#web/lib/i18n';
import { joinNames } from '../utils/display-items';

/**
 * Names a pill spells out; more are counted ('A, B, C and 247 others'), all of them in its title. A burst
 * of arrivals (a class joining by QR) comes as one pill, and a pill of 250 names is a wall of text.
 */
export const PILL_NAMES = 3;

const KEYS = {
  JOIN: { one: 'chat.joinedOne', many: 'chat.joinedMany', others: 'chat.joinedOthers' },
  LEAVE: { one: 'chat.leftOne', many: 'chat.leftMany', others: 'chat.leftOthers' },
} as const;

interface PillProps {
  event: 'JOIN' | 'LEAVE';
  names: string[];
  /** A hot room's pill: arrivals counted beyond `names`, and how many are in the room. */
  others?: number | undefined;
  members?: number | undefined;
}

/**
 * JOIN/LEAVE as a centred pill: '{name} has joined the chat' / '{A and B} have joined the chat'; in a hot
 * room, '{A, B and 480 others} have joined the chat · 10,000 people in the room'.
 */
export function SystemPill({ event, names, others: unnamed = 0, members }: PillProps) {
  const { t, language } = useI18n();
  const comma = language === 'ja' ? '、' : ', ';
  // 'and 1 other' says less than the name would
  const shown = names.length > PILL_NAMES + 1 ? names.slice(0, PILL_NAMES) : names;
  const others = names.length - shown.length + Math.max(0, unnamed);
  const joined = others > 0 ? shown.join(comma) : joinNames(shown, t('chat.and'), comma);
  const form = others > 0 ? 'others' : shown.length > 1 ? 'many' : 'one';
  const parts = [];
  if (shown.length > 0) parts.push(t(KEYS[event][form], { name: joined, names: joined, count: others }));
  else if (others > 0) parts.push(t('chat.joinedCount', { count: others.toLocaleString(language) }));
  if (members !== undefined) parts.push(t('chat.members', { count: members.toLocaleString(language) }));
  const text = parts.join(' · ');
  return (
    <div className="flex justify-center">
      <p
        data-testid="system-pill"
        data-event={event}
        title={others > 0 ? names.join(comma) : undefined}
        className="max-w-[90%] rounded-full bg-slate-200/70 px-3 py-1 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300"
      >
        {text}
      </p>
    </div>
  );
}
