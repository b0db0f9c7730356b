import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useLayoutEffect, useRef } from 'react';
import { cn } from '#web/lib/cn';
import type { MenuProps } from './menu-props';

const itemClass =
  'flex w-full cursor-pointer items-center gap-3 px-4 py-2 text-left text-sm text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800';

export interface DropdownMenuProps extends MenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The light trigger it replaces had the focus: the real one takes it. */
  takeFocus: boolean;
}

/**
 * A dropdown menu on Radix's DropdownMenu: arrow keys, typeahead, Escape, focus back to the trigger. Loaded
 * and mounted by Menu (menu.tsx) when someone shows an intent to use its trigger.
 */
export function RadixMenu({ trigger, items, label, open, onOpenChange, takeFocus }: DropdownMenuProps) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  // In the commit that swaps the triggers, so the focus is never left on the page between them; only when
  // it went with the light trigger (to the body), never taken back from where the person has moved it.
  useLayoutEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (takeFocus && lost) triggerRef.current?.focus();
  }, [takeFocus]);
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          aria-label={label}
          align="end"
          sideOffset={8}
          collisionPadding={8}
          // An item that opened a dialog: the dialog keeps the focus, not the menu's trigger.
          onCloseAutoFocus={(event) => {
            if (document.querySelector('[role="dialog"]')) event.preventDefault();
          }}
          className="z-40 max-h-[var(--radix-dropdown-menu-content-available-height)] w-64 overflow-y-auto rounded-2xl border border-slate-200 bg-white py-1.5 shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          {items.map((item) => {
            const content = (
              <>
                <span
                  aria-hidden="true"
                  className="flex size-4 items-center justify-center text-slate-500 dark:text-slate-400"
                >
                  {item.icon}
                </span>
                {item.label}
              </>
            );
            const className = cn(
              itemClass,
              item.active && 'font-semibold text-indigo-700 dark:text-indigo-300',
            );
            return [
              item.separatorBefore && (
                <DropdownMenu.Separator
                  key={`${item.key}-separator`}
                  className="my-1.5 h-px bg-slate-200 dark:bg-slate-700"
                />
              ),
              item.href ? (
                <DropdownMenu.Item key={item.key} asChild className={className} data-testid={item.testId}>
                  <a href={item.href} target="_blank" rel="noopener noreferrer">
                    {content}
                  </a>
                </DropdownMenu.Item>
              ) : item.checked !== undefined ? (
                <DropdownMenu.CheckboxItem
                  key={item.key}
                  className={className}
                  data-testid={item.testId}
                  checked={item.checked}
                  onSelect={(event) => {
                    event.preventDefault();
                    item.onSelect?.();
                  }}
                >
                  {content}
                </DropdownMenu.CheckboxItem>
              ) : (
                <DropdownMenu.Item
                  key={item.key}
                  className={className}
                  data-testid={item.testId}
                  onSelect={() => item.onSelect?.()}
                >
                  {content}
                </DropdownMenu.Item>
              ),
            ];
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
