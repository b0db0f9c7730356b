import { toast } from 'sonner';
import { wantToaster } from './toaster-demand';

/*
 * The one way to sonner's `toast`: loading this module (with the screen that imports it) is what tells the
 * app to mount the toaster. Toasts made before it mounts are shown when it does (sonner replays the active
 * ones to a new subscriber).
 */
wantToaster();

export { toast };
export { localized, words } from './toast-words';
