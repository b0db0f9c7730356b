import { cn } from '#web/lib/cn';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
}

export interface SegmentedSwitchProps<T extends string> {
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
  label: string;
  testId?: string;
}

/** A two-or-more option toggle (the JA/EN switch), exposed as a radio group. */
export function SegmentedSwitch<T extends string>({
  value,
  options,
  onChange,
  disabled,
  label,
  testId,
}: SegmentedSwitchProps<T>) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      aria-disabled={disabled || undefined}
      data-testid={testId}
      className={cn('inline-flex rounded-full bg-slate-100 p-1 dark:bg-slate-800', disabled && 'opacity-50')}
    >
      {options.map((option) => {
        const selected = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={selected}
            disabled={disabled}
            data-value={option.value}
            onClick={() => !selected && onChange(option.value)}
            className={cn(
              'min-w-10 cursor-pointer rounded-full px-2.5 py-1.5 sm:min-w-11 sm:px-3 text-xs font-semibold tracking-wide transition-colors disabled:cursor-not-allowed',
              selected
                ? 'bg-white text-indigo-700 shadow-sm dark:bg-slate-950 dark:text-indigo-300'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
