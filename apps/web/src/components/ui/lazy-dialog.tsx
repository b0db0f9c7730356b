import { Suspense, lazy, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads, and which mounts, only when it is first opened (decision 0084): the room
 * screen has six dialogs and none is open when it loads, yet mounting them (Radix, the QR code, forms,
 * their zod schemas) was a good part of the main-thread work of a room load. Once opened it stays mounted,
 * so closing it animates and returns focus as before. `load` resolves to the component itself.
 */
export function lazyDialog<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    // Set during render (React's documented pattern for state derived from props): no extra commit.
    if (props.open && !opened) setOpened(true);
    if (!opened && !props.open) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}
