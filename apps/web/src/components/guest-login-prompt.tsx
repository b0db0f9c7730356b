import { LogIn } from 'lucide-react';
import { useI18n } from '#web/lib/i18n';
import { cn } from '#web/lib/cn';
import { Button } from './ui/button';

/**
 * Laid over what a guest sees faded or disabled (their profile, their room history): what an account
 * would give them, and the way to log in.
 */
export function GuestLoginPrompt({
  prompt,
  onLogin,
  testId,
  loginTestId,
  narrow = false,
}: {
  prompt: string;
  onLogin: () => void;
  testId?: string;
  loginTestId: string;
  /** Wraps a longer prompt into a narrower column. */
  narrow?: boolean;
}) {
  const { t } = useI18n();
  return (
    <div
      data-testid={testId}
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center"
    >
      <p
        className={cn(
          narrow && 'max-w-xs',
          'rounded-2xl bg-white/90 px-4 py-2 font-medium text-slate-900 shadow-sm dark:bg-slate-800/90 dark:text-white',
        )}
      >
        {prompt}
      </p>
      <Button onClick={onLogin} data-testid={loginTestId}>
        <LogIn className="size-4" aria-hidden="true" />
        {t('room.login')}
      </Button>
    </div>
  );
}
