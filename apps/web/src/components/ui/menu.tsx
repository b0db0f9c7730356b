import { Suspense, cloneElement, lazy, startTransition, useId, useState, type PointerEvent } from 'react';
import type { MenuProps } from './menu-props';

export type { MenuItem, MenuProps } from './menu-props';

const RadixMenu = lazy(async () => ({ default: (await import('./dropdown-menu')).RadixMenu }));

/**
 * A dropdown menu (Radix's, in dropdown-menu.tsx) that a page nobody touches never pays for (decisions 0084
 * and 0085): loading and mounting Radix's menu is two long tasks of the room screen's load. Until someone
 * shows an intent to use it (the pointer comes over the trigger, a finger touches it, the focus reaches
 * it), its trigger is drawn alone, with the same look and ARIA state; then Radix's menu replaces it, closed,
 * and takes the focus if the trigger had it. Pressing the light trigger (pointer down, or Enter / Space,
 * which click) mounts Radix's menu open, as Radix's own trigger would open. Both are transitions: the light
 * trigger stays in place (focus included) while Radix's chunk loads, and is swapped for Radix's in one
 * commit, never for a second copy of itself.
 */
export function Menu(props: MenuProps) {
  const [live, setLive] = useState(false);
  const [open, setOpen] = useState(false);
  const [takeFocus, setTakeFocus] = useState(false);
  const id = useId();

  const upgrade = (focused: boolean) =>
    startTransition(() => {
      setTakeFocus(focused);
      setLive(true);
    });
  const openNow = () =>
    startTransition(() => {
      setTakeFocus(false);
      setOpen(true);
      setLive(true);
    });

  const light = cloneElement(props.trigger, {
    'data-light-trigger': id,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    'data-state': 'closed',
    onPointerEnter: () => upgrade(false),
    onTouchStart: () => upgrade(false),
    onFocus: () => upgrade(true),
    // Radix's trigger opens on the primary button's press, not on click: so does this one
    onPointerDown: (event: PointerEvent) => {
      if (event.button === 0 && !event.ctrlKey) openNow();
    },
    onClick: openNow,
  } as Record<string, unknown>);
  return (
    <Suspense fallback={light}>
      {live ? <RadixMenu {...props} open={open} onOpenChange={setOpen} takeFocus={takeFocus} /> : light}
    </Suspense>
  );
}
