import { Copy, Download, FileText, Mail } from 'lucide-react';
import { toast, words } from '#web/lib/toast';
import { HeaderButton } from '#web/components/ui/header-button';
import { Menu, type MenuItem } from '#web/components/ui/menu';
import { COPY_REFUSED, copyText } from '#web/lib/clipboard';
import { useI18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';
import { downloadText, openMailto } from '../utils/download';
import {
  formatTranscript,
  mailtoHref,
  transcriptFileName,
  type TranscriptGlossaryEntry,
  type TranscriptItem,
} from '../utils/transcript';

export interface TranscriptMenuProps {
  roomId: string | null;
  /** The chat log (any order; system events are skipped). */
  items: readonly TranscriptItem[];
  /** The room's share link, for the transcript's 'Open Chat' line. */
  link: string;
  /** The room's glossary, read when a transcript is made (listed at its end); none when it fails. */
  loadGlossary?: () => Promise<readonly TranscriptGlossaryEntry[]>;
}

/** The header's transcript menu: copy, email or download the chat as markdown. */
export function TranscriptMenu({ roomId, items, link, loadGlossary }: TranscriptMenuProps) {
  const { t, language } = useI18n();
  const room = roomId ?? '';

  // Built when chosen, not on every render: the chat log changes with every streamed chunk.
  const format = (glossary?: readonly TranscriptGlossaryEntry[]) =>
    formatTranscript(items, { roomId: room, link, locale: localeFor(language), glossary });
  // Without a glossary to read, at once: the browser lets a click copy or download only while it lasts.
  const markdown = async () =>
    loadGlossary ? format(await loadGlossary().catch(() => undefined)) : format();
  const withMarkdown = (then: (body: string) => void) => {
    if (loadGlossary) void markdown().then(then);
    else then(format());
  };

  const copy = async () => {
    try {
      await copyText(await markdown());
      toast.success(words('transcript.copied'));
    } catch (error) {
      const refused = error instanceof Error && error.message === COPY_REFUSED;
      toast.error(words(refused ? 'transcript.copyRefused' : 'transcript.copyFailed'));
    }
  };

  const menuItems: MenuItem[] = [
    {
      key: 'copy',
      label: t('transcript.copy'),
      icon: <Copy className="size-4" />,
      testId: 'transcript-copy',
      onSelect: () => void copy(),
    },
    {
      key: 'email',
      label: t('transcript.email'),
      icon: <Mail className="size-4" />,
      testId: 'transcript-email',
      onSelect: () =>
        withMarkdown((body) =>
          openMailto(mailtoHref({ subject: t('transcript.emailSubject', { room }), body })),
        ),
    },
    {
      key: 'download',
      label: t('transcript.download'),
      icon: <Download className="size-4" />,
      testId: 'transcript-download',
      onSelect: () => withMarkdown((body) => downloadText(transcriptFileName(room, Date.now()), body)),
    },
  ];

  return (
    <Menu
      label={t('transcript.menu')}
      items={menuItems}
      trigger={
        <HeaderButton
          data-testid="transcript-menu"
          title={t('transcript.menu')}
          disabled={!roomId}
          icon={<FileText />}
          label={t('transcript.short')}
        />
      }
    />
  );
}
