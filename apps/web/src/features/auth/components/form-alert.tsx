import type { ReactNode } from 'react';

/** A sign-in form's refusal, read out as it appears. */
export function FormAlert({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <p role="alert" data-testid={testId} className="text-left text-sm text-rose-600 dark:text-rose-400">
      {children}
    </p>
  );
}
