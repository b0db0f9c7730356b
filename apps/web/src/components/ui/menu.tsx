import {
  Suspense,
  cloneElement,
  lazy,
  startTransition,
  useEffect,
  useId,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface MenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  /** What choosing it does; not needed for a link (`href`). */
  onSelect?: () => void;
  /** A link, opened in a new tab (the creator's and the provider's pages). */
  href?: string;
  active?: boolean;
  separatorBefore?: boolean;
  /** data-testid of the item. */
  testId?: string;
}

export interface MenuProps {
  /** The button that opens the menu; Radix gives it aria-expanded, aria-haspopup and the key handling. */
  trigger: ReactElement;
  items: MenuItem[];
  label: string;
}

const RadixMenu = lazy(async () => ({ default: (await import('./dropdown-menu')).RadixMenu }));

/**
 * A dropdown menu (Radix's, in dropdown-menu.tsx) that costs the page's first render nothing (decision
 * 0084): mounting Radix's menu runs layout effects whose state updates re-render synchronously, pulling
 * every pending effect of the room screen into the same long task. Until then its trigger is drawn alone,
 * with the same look and ARIA state; Radix's menu replaces it once the page has rendered, or at once, open,
 * when the trigger is used first.
 */
export function Menu(props: MenuProps) {
  const [live, setLive] = useState(false);
  const [open, setOpen] = useState(false);
  const [takeFocus, setTakeFocus] = useState(false);
  const id = useId();

  useEffect(() => {
    const upgrade = () => {
      setTakeFocus(document.activeElement?.getAttribute('data-light-trigger') === id);
      startTransition(() => setLive(true));
    };
    // after the first paint, in a task of its own
    const timer = setTimeout(upgrade, 0);
    return () => clearTimeout(timer);
  }, [id]);

  const fallback = cloneElement(props.trigger, {
    'data-light-trigger': id,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    'data-state': 'closed',
    onClick: () => {
      setTakeFocus(false);
      setOpen(true);
      setLive(true);
    },
  } as Record<string, unknown>);
  if (!live) return fallback;
  return (
    <Suspense fallback={fallback}>
      <RadixMenu {...props} open={open} onOpenChange={setOpen} takeFocus={takeFocus} />
    </Suspense>
  );
}
