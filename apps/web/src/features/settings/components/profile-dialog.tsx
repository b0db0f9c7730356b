import type { User } from '@xtalk/protocol';
import { GuestLoginPrompt } from '#web/components/guest-login-prompt';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { useProfileForm } from '../hooks/use-profile-form';
import { ProfileFields } from './profile-fields';
import { SignOutEverywhere } from './sign-out-everywhere';

export interface ProfileDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  user: User;
  /** The saved user (new username and full name); the page tells the room. */
  onSaved: (user: User) => void;
  onLogin: () => void;
  /** Every session of the account was ended ("Sign out everywhere"): this device signs out too. */
  onSignedOutEverywhere: () => void;
}

/**
 * Profile Settings (設定 in Japanese): read-only user ID, Username, Full Name, Cancel and Save, and for
 * accounts "Sign out everywhere". Guests see it disabled under a Login prompt (docs/product.md#people).
 */
export function ProfileDialog(props: ProfileDialogProps) {
  const { t } = useI18n();
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      title={t('profile.title')}
      closeLabel={t('common.close')}
      testId="profile-dialog"
    >
      {/* remounted on each open: the form starts from the saved profile */}
      <ProfileForm {...props} />
    </Dialog>
  );
}

function ProfileForm(props: ProfileDialogProps) {
  const { onClose, token, user, onSaved, onLogin } = props;
  const { t } = useI18n();
  const form = useProfileForm({ token, user, onSaved, onClose });
  return (
    <>
      <form onSubmit={(event) => void form.submit(event)} noValidate>
        <div className="relative">
          <ProfileFields
            user={user}
            isGuest={form.isGuest}
            username={form.username}
            onUsername={form.changeUsername}
            fullName={form.fullName}
            onFullName={form.setFullName}
            error={form.error}
          />
          {form.isGuest && (
            <GuestLoginPrompt
              prompt={t('profile.guestPrompt')}
              onLogin={onLogin}
              testId="profile-login-prompt"
              loginTestId="profile-login"
              narrow
            />
          )}
        </div>
        <ProfileActions isGuest={form.isGuest} saving={form.saving} onClose={onClose} />
      </form>
      {!form.isGuest && <SignOutEverywhere token={token} onSignedOut={props.onSignedOutEverywhere} />}
    </>
  );
}

/** The way to change the password (accounts only), Cancel and Save. */
function ProfileActions({
  isGuest,
  saving,
  onClose,
}: {
  isGuest: boolean;
  saving: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="mt-6 flex items-center justify-end gap-2">
      {!isGuest && (
        <a
          href="/account/password"
          className="mr-auto text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {t('email.changeTitle')}
        </a>
      )}
      <Button variant="secondary" onClick={onClose}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" disabled={isGuest || saving} data-testid="profile-save">
        {saving && <Spinner className="size-4" />}
        {t('profile.save')}
      </Button>
    </div>
  );
}
