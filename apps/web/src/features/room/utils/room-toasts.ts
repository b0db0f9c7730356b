import { toast, words } from '#web/lib/toast';

/** 'Not connected.' for 2 s: something was to go out while the socket is not open. */
export function toastNotConnected(): void {
  toast.error(words('room.notConnected'), { duration: 2000 });
}
