import type { ReactElement, ReactNode } from 'react';

/* What a menu is given: by its callers to Menu (menu.tsx), by Menu to Radix's menu (dropdown-menu.tsx). */

export interface MenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  /** What choosing it does; not needed for a link (`href`). */
  onSelect?: () => void;
  /** A link, opened in a new tab (the creator's and the provider's pages). */
  href?: string;
  active?: boolean;
  /** An on/off setting: a checkbox item, and choosing it leaves the menu open to show the new state. */
  checked?: boolean;
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
