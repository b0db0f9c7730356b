import type { UiLanguage } from '@xtalk/protocol';

/*
 * The words of the Telegram and wallet sign-ins: apart from en.ts and ja.ts because only their own
 * chunk needs them, and the first load's JavaScript has a budget (`npm run size`). Same rules as there:
 * ja must define every key, with the same placeholders.
 */
const en = {
  'login.telegram': 'Sign in with Telegram',
  'signup.telegram': 'Sign up with Telegram',
  'login.telegramContinue': "Continue with Telegram's button:",
  'login.telegramUnavailable': "Telegram's sign-in could not be loaded. Check your connection and try again.",
  'login.wallet': 'Sign in with wallet',
  'signup.wallet': 'Sign up with wallet',
  'login.walletNamed': 'Sign in with {name}',
  'signup.walletNamed': 'Sign up with {name}',
  'wallet.reviewTitle': 'Sign in with your wallet',
  'wallet.reviewDescription':
    'Your wallet will ask you to sign this message. Signing it proves the address is yours; it costs nothing and sends no transaction.',
  'wallet.sign': 'Sign',
  'wallet.confirmInWallet': 'Confirm in your wallet...',
  'wallet.rejected': 'You declined the request in your wallet; nothing was signed.',
  'wallet.failed': 'The wallet could not complete the request: {message}',
} as const;

export type ProviderWordKey = keyof typeof en;

const ja: Record<ProviderWordKey, string> = {
  'login.telegram': 'Telegramでサインイン',
  'signup.telegram': 'Telegramで登録',
  'login.telegramContinue': 'Telegramのボタンから続けてください：',
  'login.telegramUnavailable':
    'Telegramのサインインを読み込めませんでした。接続を確認して、もう一度お試しください。',
  'login.wallet': 'ウォレットでサインイン',
  'signup.wallet': 'ウォレットで登録',
  'login.walletNamed': '{name}でサインイン',
  'signup.walletNamed': '{name}で登録',
  'wallet.reviewTitle': 'ウォレットでサインイン',
  'wallet.reviewDescription':
    'ウォレットがこのメッセージへの署名を求めます。署名はアドレスがあなたのものであることを示すだけで、手数料はかからず、取引も送信されません。',
  'wallet.sign': '署名する',
  'wallet.confirmInWallet': 'ウォレットで確認してください...',
  'wallet.rejected': 'ウォレットでリクエストを拒否しました。何も署名されていません。',
  'wallet.failed': 'ウォレットがリクエストを完了できませんでした：{message}',
};

export const providerWords: Record<UiLanguage, Record<ProviderWordKey, string>> = { en, ja };
