import type { ReactNode } from 'react';
import { cn } from '#web/lib/cn';

/** A centred page card, used by the simple pages (login, signup, checkout, errors). */
export function CenteredCard({
  children,
  className,
  testId,
}: {
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-indigo-50 to-white px-4 py-10 dark:from-slate-950 dark:to-slate-900">
      <div
        data-testid={testId}
        className={cn(
          'w-full max-w-md rounded-3xl border border-slate-200 bg-white p-8 text-center shadow-xl shadow-indigo-100/60 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100 dark:shadow-none',
          className,
        )}
      >
        {children}
      </div>
    </main>
  );
}
