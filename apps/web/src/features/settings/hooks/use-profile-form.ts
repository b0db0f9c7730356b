import type { User } from '@xtalk/protocol';
import { useState, type FormEvent } from 'react';
import { useI18n } from '#web/lib/i18n';
import { checkUsernameField, saveErrorOf, updateProfile, type FieldError } from '../api/profile-api';

/**
 * The profile form's fields and its save: the username is checked here first, and a refusal the server
 * ties to it shows under it; any other refusal is an alert. A guest's form never saves.
 */
export function useProfileForm({
  token,
  user,
  onSaved,
  onClose,
}: {
  token: string;
  user: User;
  onSaved: (user: User) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const isGuest = user.provider === 'guest';
  const [username, setUsername] = useState(isGuest ? user.displayUsername : user.username);
  const [fullName, setFullName] = useState(user.name);
  const [error, setError] = useState<FieldError | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isGuest || saving) return;
    const problem = checkUsernameField(username, user.username);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const saved = await updateProfile(token, { name: username.trim(), fullName });
      onSaved(saved);
      onClose();
    } catch (failure) {
      const refused = saveErrorOf(failure, username);
      if (refused.field) setError(refused.field);
      else window.alert(refused.message || t('profile.error.generic'));
    } finally {
      setSaving(false);
    }
  };

  // a new username is checked again on save: the old error no longer describes it
  const changeUsername = (value: string) => {
    setUsername(value);
    setError(undefined);
  };

  return { isGuest, username, changeUsername, fullName, setFullName, error, saving, submit };
}
