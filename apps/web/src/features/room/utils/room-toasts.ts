import { toast } from '#web/lib/toast';
import { getLanguage, translate } from '#web/lib/i18n';

/** 'Not connected.' for 2 s: something was to go out while the socket is not open. */
export function toastNotConnected(): void {
  toast.error(translate(getLanguage(), 'room.notConnected'), { duration: 2000 });
}
