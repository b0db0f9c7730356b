import { toast, words } from '#web/lib/toast';

/** The one 'Ready!' toast: a new READY replaces it, losing the connection takes it away. */
export const READY_TOAST = 'room-ready';

let pending = 0;

/**
 * Shows 'Ready!' once the frame that READY changes has been laid out and painted. Sonner renders a new
 * toast synchronously and measures its height, which forces a layout: in the same frame as the room
 * screen's own update (the first join above all) that layout covers the whole new screen and makes one
 * long task of the room's load; a frame later it covers the toast alone.
 */
export function showReady(): void {
  cancelAnimationFrame(pending);
  // sonner's own render runs in a timer it sets here, which fires after this frame's paint
  pending = requestAnimationFrame(() => {
    pending = 0;
    toast.success(words('room.ready'), { id: READY_TOAST, duration: 1500 });
  });
}

/** Takes 'Ready!' away, one still waiting for its frame included. */
export function hideReady(): void {
  cancelAnimationFrame(pending);
  pending = 0;
  toast.dismiss(READY_TOAST);
}
