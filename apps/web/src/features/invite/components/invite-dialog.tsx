import { Check, Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { toast, words } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { COPY_REFUSED, copyText } from '#web/lib/clipboard';
import { useI18n } from '#web/lib/i18n';
import { shareLink } from '../utils/share-link';

/** The Invite/Share dialog: QR code (192, level M) and a copyable link. */
export function InviteDialog({
  open,
  roomId,
  onClose,
}: {
  open: boolean;
  roomId: string | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const link = roomId ? shareLink(window.location.href, roomId) : null;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      closeLabel={t('common.close')}
      testId="invite-dialog"
      // One title in the interface language (the English one no longer stacks both).
      title={t('invite.title')}
      description={t('invite.subtitle')}
    >
      {link ? (
        <div className="flex flex-col items-center gap-5">
          <div className="rounded-2xl bg-white p-3 shadow-inner ring-1 ring-slate-200">
            <QRCodeSVG
              value={link}
              size={192}
              level="M"
              data-testid="share-qr"
              role="img"
              aria-label={t('invite.qr')}
            />
          </div>
          {/* The code itself, whole: a phone cuts the long link before it */}
          <p className="flex items-baseline gap-2 text-sm text-slate-600 dark:text-slate-300">
            {t('room.roomLabel')}
            <span
              data-testid="share-code"
              className="font-mono text-2xl font-bold tracking-widest text-slate-900 dark:text-white"
            >
              {roomId}
            </span>
          </p>
          <CopyableLink link={link} />
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

/** The link in a read-only field with its copy button, which shows a tick for a moment once copied. */
function CopyableLink({ link }: { link: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(id);
  }, [copied]);

  const copy = async () => {
    try {
      await copyText(link);
      setCopied(true);
      toast.success(words('invite.copied'), { duration: 2000 });
    } catch (error) {
      const refused = error instanceof Error && error.message === COPY_REFUSED;
      toast.error(words(refused ? 'invite.copyRefused' : 'invite.copyFailed'), { duration: 3000 });
    }
  };

  return (
    <div className="flex w-full items-center gap-2 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-4 dark:border-slate-700 dark:bg-slate-950">
      <input
        data-testid="share-link"
        readOnly
        value={link}
        onFocus={(event) => event.target.select()}
        // Scrolled to its end, where the room code is, when shown
        ref={(input) => {
          if (input) input.scrollLeft = input.scrollWidth;
        }}
        aria-label={t('invite.copy')}
        className="min-w-0 flex-1 bg-transparent font-mono text-sm text-slate-700 outline-none dark:text-slate-200"
      />
      <Button size="sm" onClick={() => void copy()} aria-label={t('invite.copy')} data-testid="copy-link">
        {copied ? (
          <Check className="size-4" aria-hidden="true" />
        ) : (
          <Copy className="size-4" aria-hidden="true" />
        )}
      </Button>
    </div>
  );
}
