import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { requestErrorText } from '#web/lib/error-text';
import { downloadExport } from '../api/own-data-api';
import { DeleteAccount } from './delete-account';

/**
 * "Your data" in the profile dialog (accounts only): a copy of everything XTalk holds about the person,
 * as JSON or readable Markdown, and deleting the account after a typed confirmation.
 */
export function YourData({ token, onDeleted }: { token: string; onDeleted: () => void }) {
  const { t, language } = useI18n();
  const [busy, setBusy] = useState<'json' | 'md' | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);
  const download = async (format: 'json' | 'md') => {
    setBusy(format);
    setError(undefined);
    try {
      await downloadExport(token, format);
    } catch (failure) {
      setError(requestErrorText(language, failure));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section
      aria-labelledby="your-data-title"
      className="mt-6 flex flex-col gap-2 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 id="your-data-title" className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        {t('ownData.title')}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('ownData.exportHint')}</p>
      <div className="flex flex-wrap gap-2">
        {(['json', 'md'] as const).map((format) => (
          <Button
            key={format}
            variant="outline"
            disabled={busy !== undefined}
            onClick={() => void download(format)}
            data-testid={`profile-export-${format}`}
          >
            {busy === format ? <Spinner className="size-4" /> : <Download className="size-4" aria-hidden />}
            {t(format === 'json' ? 'ownData.exportJson' : 'ownData.exportMarkdown')}
          </Button>
        ))}
        {!deleting && (
          <Button variant="outline" onClick={() => setDeleting(true)} data-testid="profile-delete-account">
            <Trash2 className="size-4" aria-hidden />
            {t('ownData.delete')}
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
      {deleting && <DeleteAccount token={token} onCancel={() => setDeleting(false)} onDeleted={onDeleted} />}
    </section>
  );
}
