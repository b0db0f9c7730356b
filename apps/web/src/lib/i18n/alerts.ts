import type { UiLanguage } from '@xtalk/protocol';
import { fill, type Params } from './index';

/*
 * The words of notifications and the message chime: apart from en.ts and ja.ts because only the room
 * screen needs them, and the first load's JavaScript has a budget (`npm run size`). Same rules as there:
 * ja must define every key, with the same placeholders.
 */
const en = {
  notifications: 'Notifications',
  notificationsBlocked: 'Blocked in browser settings',
  notificationsDismissed: 'Not allowed: the browser asked and got no answer',
  notificationsUnsupported: 'Not supported by this browser',
  sound: 'Message sound',
  on: 'On',
  off: 'Off',
  title: '{name} in room {room}',
} as const;

export type AlertKey = keyof typeof en;

const ja: Record<AlertKey, string> = {
  notifications: '通知',
  notificationsBlocked: 'ブラウザの設定でブロック中',
  notificationsDismissed: '許可されていません（ブラウザの確認に応答がありませんでした）',
  notificationsUnsupported: 'このブラウザは通知に対応していません',
  sound: 'メッセージの音',
  on: 'オン',
  off: 'オフ',
  title: '{name}（ルーム {room}）',
};

export const alertWords: Record<UiLanguage, Record<AlertKey, string>> = { en, ja };

export const alertText = (language: UiLanguage, key: AlertKey, params?: Params): string =>
  fill(alertWords[language][key], params);
