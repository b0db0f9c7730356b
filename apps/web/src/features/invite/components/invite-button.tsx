import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { HeaderButton } from '#web/components/ui/header-button';
import { lazyDialog } from '#web/components/ui/lazy-dialog';
import { useI18n } from '#web/lib/i18n';

// The dialog (and the QR code library) load when it is first opened (decision 0084).
const InviteDialog = lazyDialog(async () => (await import('./invite-dialog')).InviteDialog);

/** The header's Invite button; it opens the Invite/Share dialog. Off until there is a room to share. */
export function InviteButton({ roomId }: { roomId: string | null }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <HeaderButton
        data-testid="invite-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        disabled={!roomId}
        icon={<UserPlus />}
        label={t('room.invite')}
        className="bg-slate-100 dark:bg-slate-800"
      />
      <InviteDialog open={open} roomId={roomId} onClose={() => setOpen(false)} />
    </>
  );
}
