import type { UiLanguage } from '@xtalk/protocol';

/*
 * The words of the room's notices (docs/decisions/0126), by kind: apart from en.ts and ja.ts because only
 * the room screen needs them, and the first load's JavaScript has a budget (`npm run size`). Same rules as
 * there: ja must define every key, with the same placeholders.
 */
const en = {
  'engine.translation': 'translation engine',
  'engine.note': 'hint engine',
  'engine.speech': 'speech engine',
  'engine.transcription': 'speech recognition engine',
  engine_loading: 'The {engine} is loading ({percent}%)…',
  engine_ready: 'The {engine} is ready.',
  engine_unavailable: 'The {engine} is unavailable right now.',
  'engine_failed.translation': 'Translation into {language} failed. The message is shown as written.',
  'engine_failed.note': 'A translation hint could not be made.',
  'engine_failed.speech': 'Spoken translation into {language} failed.',
  'engine_failed.transcription': 'Speech recognition failed.',
  'engine_cause.unreachable': 'The AI engine is unreachable.',
  'engine_cause.timeout': 'The AI engine did not answer in time.',
  'engine_cause.status': 'The AI engine answered with an error (HTTP {status}).',
  backlog: 'Too many messages at once: some messages were not translated.',
  'translation_paused.guest_allowance':
    "Translation paused: {name} has used a guest's AI allowance for today. Their messages are still delivered, untranslated.",
  'translation_paused.no_credits':
    'Translation paused: {name} has run out of credits. Their messages are still delivered, untranslated.',
  'credits_paused.guest_allowance':
    "You have used today's translation allowance for guests, so your messages are delivered untranslated. Sign in to keep translating.",
  'credits_paused.no_credits':
    'You have run out of credits, so your messages are delivered untranslated. Free credits are topped up at midnight Tokyo time, or buy more from your balance.',
} as const;

export type NoticeKey = keyof typeof en;

const ja: Record<NoticeKey, string> = {
  'engine.translation': '翻訳エンジン',
  'engine.note': 'ヒントエンジン',
  'engine.speech': '音声合成エンジン',
  'engine.transcription': '音声認識エンジン',
  engine_loading: '{engine}を読み込んでいます（{percent}%）…',
  engine_ready: '{engine}の準備ができました。',
  engine_unavailable: '{engine}は現在利用できません。',
  'engine_failed.translation': '{language}への翻訳に失敗しました。メッセージは原文のまま表示されます。',
  'engine_failed.note': '翻訳のヒントを作成できませんでした。',
  'engine_failed.speech': '{language}の音声翻訳に失敗しました。',
  'engine_failed.transcription': '音声認識に失敗しました。',
  'engine_cause.unreachable': 'AIエンジンに接続できません。',
  'engine_cause.timeout': 'AIエンジンが時間内に応答しませんでした。',
  'engine_cause.status': 'AIエンジンがエラーを返しました（HTTP {status}）。',
  backlog: '一度に多くのメッセージが届いたため、一部のメッセージは翻訳されませんでした。',
  'translation_paused.guest_allowance':
    '翻訳を一時停止しました: {name}さんは本日のゲスト用AI利用枠を使い切りました。メッセージは翻訳されずに届きます。',
  'translation_paused.no_credits':
    '翻訳を一時停止しました: {name}さんのクレジットがなくなりました。メッセージは翻訳されずに届きます。',
  'credits_paused.guest_allowance':
    '本日のゲスト用翻訳枠を使い切ったため、あなたのメッセージは翻訳されずに届きます。ログインすると翻訳を続けられます。',
  'credits_paused.no_credits':
    'クレジットがなくなったため、あなたのメッセージは翻訳されずに届きます。無料クレジットは日本時間の午前0時に補充されます。残高から購入することもできます。',
};

export const noticeWords: Record<UiLanguage, Record<NoticeKey, string>> = { en, ja };

/** A key built from a notice's kind and params is one of these. */
export const isNoticeKey = (key: string): key is NoticeKey => Object.hasOwn(en, key);
