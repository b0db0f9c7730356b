import type { BotcheckChallenge } from '@xtalk/protocol';
import { CheckCircle2, Mic, MicOff, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import type { CheckState } from '../hooks/use-guest-check';
import type { MicPermission } from '../hooks/use-mic-permission';
import { BotCheck } from './bot-check';

/* The numbered steps of /guest-login and what each shows. */

export function Step({
  n,
  title,
  done,
  children,
}: {
  n: number;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
          done
            ? 'bg-emerald-500 text-white'
            : 'bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
        )}
      >
        {done ? <CheckCircle2 className="size-5" aria-hidden="true" /> : n}
      </span>
      <div className="min-w-0 flex-1 pt-1 text-left">
        <h2 className="text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
        <div className="mt-2">{children}</div>
      </div>
    </li>
  );
}

interface CheckProps {
  check: CheckState;
  challenge: BotcheckChallenge | null;
  onSolved: (payload: string) => void;
  onError: (error: unknown) => void;
}

/** The bot check: its widget while it is solved, then checked or failed. */
export function CheckStatus({ check, challenge, onSolved, onError }: CheckProps) {
  return (
    <div className={CHECK_ROOM}>
      <CheckPhase check={check} challenge={challenge} onSolved={onSolved} onError={onError} />
    </div>
  );
}

/**
 * The room the bot check takes while solving (the widget, 70 px as its placeholder in bot-check.tsx; a gap;
 * the status line), kept in every state: the widget leaving at "Verified" would otherwise shrink the
 * centred card and move the microphone button under a finger about to tap it.
 */
const CHECK_ROOM = 'min-h-[calc(70px+0.5rem+1.25rem)]';

/** What the check shows in each of its states. */
function CheckPhase({ check, challenge, onSolved, onError }: CheckProps) {
  const { t } = useI18n();
  if (check === 'done') {
    return (
      // the widget's own box, now saying it is done, so the room it leaves is not an empty gap
      <p className="flex h-[70px] w-full max-w-[260px] items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 text-sm text-emerald-700 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-400">
        <ShieldCheck className="size-4" aria-hidden="true" /> {t('guest.checked')}
      </p>
    );
  }
  if (check === 'failed') {
    return (
      <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
        {t('guest.checkFailed')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {challenge && check === 'solving' && (
        <BotCheck challenge={challenge} onSolved={onSolved} onError={onError} />
      )}
      <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
        <Spinner className="size-4" />{' '}
        {check === 'exchanging' ? t('guest.creatingUser') : t('guest.checking')}
      </p>
    </div>
  );
}

/** The microphone question, its answer, and a word while the guest user is still being made. */
export function MicStatus({
  permission,
  request,
  waiting,
}: {
  permission: MicPermission;
  request: () => Promise<'granted' | 'denied'>;
  waiting: boolean;
}) {
  const { t } = useI18n();
  const askMic = async () => {
    const result = await request();
    if (result !== 'denied') return;
    // the toaster loads only now: it is no part of this page's load, which paints its words first
    const { toast, words } = await import('#web/lib/toast');
    toast.error(words('guest.micDenied'), { duration: 6000 });
  };
  return (
    <>
      <Button
        data-testid="mic-permission"
        data-permission={permission}
        variant={permission === 'denied' ? 'outline' : 'primary'}
        onClick={() => void askMic()}
        disabled={permission === 'requesting'}
        className="w-full sm:w-auto"
      >
        {permission === 'denied' ? (
          <MicOff className="size-4" aria-hidden="true" />
        ) : (
          <Mic className="size-4" aria-hidden="true" />
        )}
        {permission === 'granted' ? t('guest.micGranted') : t('guest.micButton')}
      </Button>
      {permission === 'denied' && (
        <p role="alert" className="mt-2 text-sm text-amber-700 dark:text-amber-400">
          {t('guest.micDenied')}
        </p>
      )}
      {waiting && <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('guest.micWaiting')}</p>}
    </>
  );
}
