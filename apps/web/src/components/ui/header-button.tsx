import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { cn } from '#web/lib/cn';

export interface HeaderButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  icon: ReactNode;
  /** Always visible: under the icon on a phone, beside it from `sm` up. */
  label: string;
  ref?: Ref<HTMLButtonElement>;
}

/** A room-header action: an icon with a visible label that is also its accessible name. */
export function HeaderButton({ icon, label, className, type = 'button', ...props }: HeaderButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex h-12 min-w-11 shrink-0 cursor-pointer flex-col items-center justify-center gap-0.5 rounded-xl px-1.5 text-slate-700 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-40 sm:h-9 sm:flex-row sm:gap-1.5 sm:rounded-full sm:px-3 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden="true"
        className="flex size-5 items-center justify-center [&>svg]:size-5 sm:[&>svg]:size-4"
      >
        {icon}
      </span>
      <span className="text-[10px] leading-none font-medium sm:text-sm">{label}</span>
    </button>
  );
}
