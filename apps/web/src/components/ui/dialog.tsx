import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { cn } from '#web/lib/cn';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  closeLabel?: string;
  className?: string;
  testId?: string;
}

// The first field or action, not the corner close button: what the person came to the dialog for.
const FIRST_FOCUS =
  'input:not([disabled]), select, textarea, button:not([data-dialog-close]):not([disabled])';

/**
 * A modal dialog on Radix's Dialog: focus trap, scroll lock, the rest of the page inert, Escape and a
 * click outside close it, focus returns to the opener. Focus moves in once, when it opens: re-renders
 * (every incoming frame re-renders the room screen, with a new `onClose`) never move it again.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  closeLabel,
  className,
  testId,
}: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 flex items-end justify-center overflow-y-auto bg-slate-950/50 p-0 backdrop-blur-sm sm:items-center sm:p-4">
          <RadixDialog.Content
            ref={panel}
            data-testid={testId}
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(event) => {
              const first = panel.current?.querySelector<HTMLElement>(FIRST_FOCUS);
              if (!first) return; // Radix focuses the panel itself
              event.preventDefault();
              first.focus();
            }}
            className={cn(
              'relative w-full max-w-md rounded-t-3xl bg-white p-6 shadow-2xl outline-none sm:rounded-3xl dark:bg-slate-900 dark:text-slate-100',
              className,
            )}
          >
            <RadixDialog.Close
              data-dialog-close
              aria-label={closeLabel ?? 'Close'}
              className="absolute top-4 right-4 cursor-pointer rounded-full p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
            >
              <X className="size-5" aria-hidden="true" />
            </RadixDialog.Close>
            <RadixDialog.Title className="pr-8 text-lg font-semibold">{title}</RadixDialog.Title>
            {description && (
              <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {description}
              </RadixDialog.Description>
            )}
            {children && <div className="mt-5">{children}</div>}
            {footer && <div className="mt-6 flex justify-end gap-2">{footer}</div>}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
