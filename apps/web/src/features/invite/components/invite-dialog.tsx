import { Check, Copy, UserPlus } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { COPY_REFUSED, copyText } from '../../../lib/clipboard';
import { translate, useI18n } from '../../../lib/i18n';
import { shareLink } from '../utils/share-link';

/** Invite button plus the Invite/Share dialog: QR code (192, level M) and a copyable link. */
export function InviteButton({ roomId }: { roomId: string | null }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        data-testid="invite-button"
        size="sm"
        variant="secondary"
        onClick={() => setOpen(true)}
        aria-label={t('room.invite')}
      >
        <UserPlus className="size-4" aria-hidden="true" />
        <span className="hidden sm:inline">{t('room.invite')}</span>
      </Button>
      <InviteDialog open={open} roomId={roomId} onClose={() => setOpen(false)} />
    </>
  );
}

export function InviteDialog({
  open,
  roomId,
  onClose,
}: {
  open: boolean;
  roomId: string | null;
  onClose: () => void;
}) {
  const { t, language } = useI18n();
  const [copied, setCopied] = useState(false);
  const link = roomId ? shareLink(window.location.href, roomId) : null;

  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(id);
  }, [copied]);

  const copy = async () => {
    if (!link) return;
    try {
      await copyText(link);
      setCopied(true);
      toast.success(t('invite.copied'), { duration: 2000 });
    } catch (error) {
      const refused = error instanceof Error && error.message === COPY_REFUSED;
      toast.error(refused ? t('invite.copyRefused') : t('invite.copyFailed'), { duration: 3000 });
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      closeLabel={t('common.close')}
      testId="invite-dialog"
      title={
        <>
          {t('invite.title')}
          {language !== 'ja' && (
            <span lang="ja" className="mt-0.5 block text-sm font-normal text-slate-500 dark:text-slate-400">
              {translate('ja', 'invite.title')}
            </span>
          )}
        </>
      }
      description={
        <>
          {t('invite.subtitle')}
          {language !== 'ja' && (
            <span lang="ja" className="mt-0.5 block">
              {translate('ja', 'invite.subtitle')}
            </span>
          )}
        </>
      }
    >
      {link ? (
        <div className="flex flex-col items-center gap-5">
          <div className="rounded-2xl bg-white p-3 shadow-inner ring-1 ring-slate-200">
            <QRCodeSVG value={link} size={192} level="M" data-testid="share-qr" />
          </div>
          <div className="flex w-full items-center gap-2 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-4 dark:border-slate-700 dark:bg-slate-950">
            <input
              data-testid="share-link"
              readOnly
              value={link}
              onFocus={(event) => event.target.select()}
              aria-label={t('invite.copy')}
              className="min-w-0 flex-1 bg-transparent font-mono text-sm text-slate-700 outline-none dark:text-slate-200"
            />
            <Button
              size="sm"
              onClick={() => void copy()}
              aria-label={t('invite.copy')}
              data-testid="copy-link"
            >
              {copied ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )}
            </Button>
          </div>
          <Button variant="secondary" className="self-end" onClick={onClose}>
            {t('common.close')}
          </Button>
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <Spinner /> {t('invite.pending')}
        </p>
      )}
    </Dialog>
  );
}
