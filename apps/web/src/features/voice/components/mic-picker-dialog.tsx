import * as RadioGroup from '@radix-ui/react-radio-group';
import { Mic } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import type { Microphone } from '../hooks/use-microphones';

export interface MicPickerDialogProps {
  open: boolean;
  onClose: () => void;
  devices: Microphone[];
  selected?: string;
  onChoose: (deviceId: string) => void;
  onOpen?: () => void;
}

/** Microphone picker: inputs as radio choices; choosing one switches and closes. */
export function MicPickerDialog({
  open,
  onClose,
  devices,
  selected,
  onChoose,
  onOpen,
}: MicPickerDialogProps) {
  const { t } = useI18n();
  useEffect(() => {
    if (open) onOpen?.();
  }, [open, onOpen]);
  // The first input is the browser's default: it stands for "no choice made yet".
  const current = selected && devices.some((d) => d.deviceId === selected) ? selected : devices[0]?.deviceId;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('voice.pickerTitle')}
      description={t('voice.pickerDescription')}
      closeLabel={t('common.close')}
      testId="mic-picker"
      footer={
        <Button variant="ghost" onClick={onClose} data-testid="mic-picker-close">
          {t('common.close')}
        </Button>
      }
    >
      {devices.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{t('voice.noDevices')}</p>
      ) : (
        <RadioGroup.Root
          value={current}
          aria-label={t('voice.pickerTitle')}
          className="space-y-2"
          onValueChange={(deviceId) => {
            onChoose(deviceId);
            onClose();
          }}
        >
          {devices.map((device) => {
            const checked = device.deviceId === current;
            const id = `mic-${device.deviceId}`;
            return (
              <label
                key={device.deviceId}
                htmlFor={id}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-2xl border px-4 py-3 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
                  checked
                    ? 'border-indigo-500 bg-indigo-50 text-indigo-900 dark:border-indigo-400 dark:bg-indigo-950/60 dark:text-indigo-100'
                    : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800',
                )}
              >
                <RadioGroup.Item
                  id={id}
                  value={device.deviceId}
                  data-testid="mic-option"
                  className="flex size-4 shrink-0 items-center justify-center rounded-full border border-slate-400 outline-none data-[state=checked]:border-indigo-600 dark:border-slate-500 dark:data-[state=checked]:border-indigo-400"
                >
                  <RadioGroup.Indicator className="size-2 rounded-full bg-indigo-600 dark:bg-indigo-400" />
                </RadioGroup.Item>
                <Mic className="size-4 shrink-0 opacity-60" aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate">{device.label}</span>
              </label>
            );
          })}
        </RadioGroup.Root>
      )}
    </Dialog>
  );
}
