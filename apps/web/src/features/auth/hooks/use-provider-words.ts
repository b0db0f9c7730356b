import { fill, useI18n, type Params } from '#web/lib/i18n';
import { providerWords, type ProviderWordKey } from '../utils/provider-words';

/** These words in the interface language, as useI18n's `t` gives the others. */
export function useProviderWords(): (key: ProviderWordKey, params?: Params) => string {
  const { language } = useI18n();
  return (key, params) => fill(providerWords[language][key], params);
}
