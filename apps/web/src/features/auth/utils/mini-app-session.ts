import { authStore } from '#web/lib/auth-session';
import { requestErrorText } from '#web/lib/error-text';
import { translate } from '#web/lib/i18n';
import { StorageKey, remove } from '#web/lib/storage';
import { telegramSignIn } from '../api/provider-sign-in';

// one sign-in per page load, however often React mounts the gate
let started: Promise<void> | undefined;

/**
 * Signs in with the Mini App's initData (tga). Someone already signed in stays who they are (their
 * session is neither swapped nor silently linked); a guest keeps their player. A refusal is said in a
 * toast over the page that opens.
 */
async function signIn(initData: string, bot: string): Promise<void> {
  const session = authStore.get();
  if (session && session.user.provider !== 'guest') return;
  try {
    authStore.set(await telegramSignIn('tga', { payload: initData, data: { bot } }));
    // a guest's rooms on this device are not the account's history (the server has that)
    remove(StorageKey.rooms);
  } catch (failure) {
    // the toaster loads only now: the sign-in page that re-exports this never toasts otherwise
    const { localized, toast } = await import('#web/lib/toast');
    toast.error(
      localized((language) =>
        translate(language, 'auth.failed', { message: requestErrorText(language, failure) }),
      ),
    );
  }
}

/** `bot`: the one the server names (GET /api/auth/config). */
export function signInFromMiniApp(initData: string, bot: string): Promise<void> {
  started ??= signIn(initData, bot);
  return started;
}
