import { MAX_MESSAGE_LENGTH, type UiLanguage } from '@xtalk/protocol';
import { Pencil } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { useI18n } from '#web/lib/i18n';
import { formatRelativeTime } from '#web/lib/time';

export interface MessageEditorProps {
  initial: string;
  /** The message's language, so the field is read and spell-checked as that language. */
  language: string;
  /** Sends the correction; returns false when it could not be sent (then the editor stays open). */
  onSave: (text: string) => boolean;
  onCancel: () => void;
}

/**
 * The author's correction of one of their messages, in place of its text: Enter (or Save) sends it,
 * Shift+Enter breaks the line, Escape (or Cancel) leaves it as it was. The field takes the focus; the
 * caller gives it back to the Edit button when the editor closes.
 */
export function MessageEditor({ initial, language, onSave, onCancel }: MessageEditorProps) {
  const { t } = useI18n();
  const [text, setText] = useState(initial);
  const helpId = useId();
  const trimmed = text.trim();

  const save = () => {
    if (trimmed === '') return;
    if (trimmed === initial.trim()) return onCancel();
    onSave(trimmed);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      // an IME's Enter confirms its conversion (Japanese input), it does not send
      event.preventDefault();
      save();
    }
  };

  return (
    <form onSubmit={submit} data-testid="message-editor" className="flex flex-col gap-2">
      <textarea
        data-testid="edit-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        lang={language}
        dir="auto"
        // the user just asked to edit this text
        autoFocus
        onFocus={(event) => event.currentTarget.select()}
        rows={Math.min(6, Math.max(2, text.split('\n').length))}
        maxLength={MAX_MESSAGE_LENGTH}
        aria-label={t('chat.editMessage')}
        aria-describedby={helpId}
        className="w-full min-w-[12rem] resize-y rounded-xl border border-slate-300 bg-white px-3 py-2 text-[15px] text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:focus:ring-indigo-900"
      />
      <p id={helpId} className="text-xs text-slate-600 dark:text-slate-400">
        {t('chat.editHelp')}
      </p>
      <div className="flex justify-end gap-2">
        <button
          type="button"
          data-testid="edit-cancel"
          onClick={onCancel}
          className="cursor-pointer rounded-full px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:text-slate-300 dark:hover:bg-slate-800"
        >
          {t('chat.cancelEdit')}
        </button>
        <button
          type="submit"
          data-testid="edit-save"
          disabled={trimmed === ''}
          className="cursor-pointer rounded-full bg-indigo-600 px-3 py-1 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-40 dark:bg-indigo-500"
        >
          {t('chat.saveEdit')}
        </button>
      </div>
    </form>
  );
}

/** The 'edited' mark next to a corrected message's time; when, on hover. */
export function EditedMark({ editedAt, now }: { editedAt: number; now: number }) {
  const { t, language } = useI18n();
  return (
    <span
      data-testid="edited-mark"
      title={t('chat.editedAt', { time: formatRelativeTime(editedAt, language as UiLanguage, now) })}
      className="shrink-0 text-slate-600 italic dark:text-slate-400"
    >
      {t('chat.edited')}
    </span>
  );
}

/** Opens the editor on the author's own message (a real button: Enter and Space work, it is named). */
export function EditButton({ ref, onClick }: { ref?: Ref<HTMLButtonElement>; onClick: () => void }) {
  const { t } = useI18n();
  return (
    <div className="mt-1 px-1">
      <button
        ref={ref}
        type="button"
        data-testid="edit-button"
        onClick={onClick}
        aria-label={t('chat.editMessage')}
        className="inline-flex cursor-pointer items-center gap-1 rounded-full px-2.5 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:text-slate-400 dark:hover:bg-slate-800"
      >
        <Pencil className="size-3.5" aria-hidden="true" />
        {t('chat.edit')}
      </button>
    </div>
  );
}
