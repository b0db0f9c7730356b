/*
 * A page opened as the bot's Mini App: Telegram hands it the signed initData in the address's fragment
 * (#tgWebAppData=...), or, where the page loaded Telegram's own script, as Telegram.WebApp.initData.
 */

interface TelegramGlobal {
  Telegram?: { WebApp?: { initData?: unknown } };
}

/** The Mini App's initData, or undefined when this page was not opened inside Telegram. */
export function miniAppInitData(): string | undefined {
  const fromAddress = new URLSearchParams(location.hash.slice(1)).get('tgWebAppData');
  const fromScript = (window as TelegramGlobal).Telegram?.WebApp?.initData;
  const initData = fromAddress || fromScript;
  return typeof initData === 'string' && initData !== '' ? initData : undefined;
}
