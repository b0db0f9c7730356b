import { GLOSSARY_MAX_ENTRIES, GLOSSARY_TERM_MAX_LENGTH, type GlossaryEntry } from '@xtalk/protocol';
import { LogIn, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { localized, toast, words } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { requestErrorText } from '#web/lib/error-text';
import { languageLabel, useI18n } from '#web/lib/i18n';
import { fetchGlossary, saveGlossary } from '../api/glossary-api';

export interface GlossaryDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  roomId: string;
  isGuest: boolean;
  /** The room's languages (READY). */
  languages: readonly string[];
  /** The glossary's version as the room last announced it: a newer one is fetched again. */
  version: number;
  onLogin: () => void;
}

const fieldClass =
  'h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-base text-slate-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100';

/**
 * The room's glossary: its entries, and for signed-in members a form that adds one and buttons that remove
 * one. Every change saves the whole list at once; the room is told and the next translations follow it.
 */
export function GlossaryDialog(props: GlossaryDialogProps) {
  const { t } = useI18n();
  const [entries, setEntries] = useState<GlossaryEntry[] | undefined>();
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const { open, token, roomId, version } = props;

  useEffect(() => {
    if (!open) return;
    let current = true;
    fetchGlossary(token, roomId).then(
      (glossary) => current && (setEntries(glossary.entries), setFailed(false)),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [open, token, roomId, version]);

  const save = async (next: GlossaryEntry[] | Omit<GlossaryEntry, 'id'>[]) => {
    setSaving(true);
    try {
      setEntries((await saveGlossary(token, roomId, next)).entries);
      toast.success(words('glossary.saved'));
      return true;
    } catch (error) {
      toast.error(localized((language) => requestErrorText(language, error)));
      return false;
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={props.onClose}
      title={t('glossary.title')}
      description={t('glossary.description')}
      closeLabel={t('common.close')}
      testId="glossary-dialog"
      className="max-w-lg"
    >
      {failed && !entries ? (
        <p className="py-6 text-center text-sm text-rose-600 dark:text-rose-400">
          {t('glossary.loadFailed')}
        </p>
      ) : !entries ? (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      ) : (
        <>
          <EntryList
            entries={entries}
            languages={props.languages}
            onRemove={props.isGuest ? undefined : (id) => void save(entries.filter((e) => e.id !== id))}
            disabled={saving}
          />
          {props.isGuest ? (
            <div className="mt-4 flex items-center justify-between gap-3 rounded-xl bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              <span>{t('glossary.guest')}</span>
              <Button size="sm" onClick={props.onLogin}>
                <LogIn className="size-4" /> {t('room.login')}
              </Button>
            </div>
          ) : entries.length >= GLOSSARY_MAX_ENTRIES ? (
            <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{t('glossary.full')}</p>
          ) : (
            <AddEntry
              languages={props.languages}
              disabled={saving}
              onAdd={(entry) => save([...entries, entry])}
            />
          )}
        </>
      )}
    </Dialog>
  );
}

function EntryList(props: {
  entries: GlossaryEntry[];
  languages: readonly string[];
  onRemove: ((id: string) => void) | undefined;
  disabled: boolean;
}) {
  const { t, language } = useI18n();
  if (props.entries.length === 0)
    return (
      <p className="py-4 text-center text-sm text-slate-500 dark:text-slate-400">{t('glossary.empty')}</p>
    );
  return (
    <>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        {t('glossary.count', { count: props.entries.length, max: GLOSSARY_MAX_ENTRIES })}
      </p>
      <ul
        className="max-h-64 divide-y divide-slate-200 overflow-y-auto rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        data-testid="glossary-entries"
      >
        {props.entries.map((entry) => (
          <li key={entry.id} className="flex items-center gap-2 px-3 py-2">
            <div className="min-w-0 flex-1">
              <div className="truncate font-medium text-slate-900 dark:text-slate-100" lang={entry.language}>
                {entry.term}
              </div>
              <div className="truncate text-xs text-slate-600 dark:text-slate-400">
                {props.languages
                  .filter((code) => code !== entry.language)
                  .map(
                    (code) =>
                      `${languageLabel(code, language)}: ${entry.renderings[code] ?? t('glossary.keep')}`,
                  )
                  .join(' · ')}
              </div>
            </div>
            {props.onRemove && (
              <button
                type="button"
                disabled={props.disabled}
                onClick={() => props.onRemove?.(entry.id)}
                aria-label={t('glossary.remove', { term: entry.term })}
                className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-rose-600 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-slate-800"
              >
                <Trash2 className="size-4" />
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function AddEntry(props: {
  languages: readonly string[];
  disabled: boolean;
  onAdd: (entry: Omit<GlossaryEntry, 'id'>) => Promise<boolean>;
}) {
  const { t, language } = useI18n();
  const ids = useId();
  const [term, setTerm] = useState('');
  const [termLanguage, setTermLanguage] = useState(props.languages[0] ?? 'en');
  const [renderings, setRenderings] = useState<Record<string, string>>({});
  const others = props.languages.filter((code) => code !== termLanguage);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (term.trim() === '') return;
    const given = Object.fromEntries(
      others.flatMap((code) => (renderings[code]?.trim() ? [[code, renderings[code]!.trim()]] : [])),
    );
    if (await props.onAdd({ term: term.trim(), language: termLanguage, renderings: given })) {
      setTerm('');
      setRenderings({});
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-3" data-testid="glossary-add">
      <div className="grid grid-cols-[1fr_auto] gap-2">
        <div className="min-w-0">
          <label
            htmlFor={`${ids}-term`}
            className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300"
          >
            {t('glossary.term')}
          </label>
          <input
            id={`${ids}-term`}
            data-testid="glossary-term"
            className={fieldClass}
            value={term}
            maxLength={GLOSSARY_TERM_MAX_LENGTH}
            onChange={(event) => setTerm(event.target.value)}
          />
        </div>
        <div>
          <label
            htmlFor={`${ids}-lang`}
            className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300"
          >
            {t('glossary.termLanguage')}
          </label>
          <select
            id={`${ids}-lang`}
            className={fieldClass}
            value={termLanguage}
            onChange={(event) => setTermLanguage(event.target.value)}
          >
            {props.languages.map((code) => (
              <option key={code} value={code}>
                {languageLabel(code, language)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {others.map((code) => (
        <div key={code}>
          <label
            htmlFor={`${ids}-${code}`}
            className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300"
          >
            {t('glossary.rendering', { language: languageLabel(code, language) })}
          </label>
          <input
            id={`${ids}-${code}`}
            data-testid={`glossary-rendering-${code}`}
            className={fieldClass}
            lang={code}
            value={renderings[code] ?? ''}
            placeholder={t('glossary.renderingHint')}
            maxLength={GLOSSARY_TERM_MAX_LENGTH}
            onChange={(event) => setRenderings({ ...renderings, [code]: event.target.value })}
          />
        </div>
      ))}
      <Button type="submit" disabled={props.disabled || term.trim() === ''} data-testid="glossary-submit">
        <Plus className="size-4" /> {t('glossary.add')}
      </Button>
    </form>
  );
}
