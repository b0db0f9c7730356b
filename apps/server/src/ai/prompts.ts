import type {
  ContextMessage,
  GlossaryTerm,
  NoteRequest,
  SummaryRequest,
  TranslateRequest,
} from './provider.js';
import { languageName } from './provider.js';

/*
 * Prompts for chat-completion engines (the `openai` provider). Kept apart so their wording can be tuned
 * and tested without a provider.
 */

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** What the model answers when a message carries no nuance worth a hint. */
export const NO_NOTE_SENTINEL = 'NONE';
/** Notes longer than this are cut (a hint is a line, not an essay). */
export const MAX_NOTE_LENGTH = 400;

function contextBlock(context: ContextMessage[]): string {
  if (context.length === 0) return '(no earlier messages)';
  return context.map((m) => `${m.username} [${m.language}]: ${m.text}`).join('\n');
}

/** The room glossary's required renderings, as an instruction; empty when no term occurs. */
export function glossaryInstruction(glossary: GlossaryTerm[] | undefined, target: string): string {
  if (!glossary || glossary.length === 0) return '';
  const lines = glossary.map((entry) => `- "${entry.term}" -> "${entry.rendering}"`).join('\n');
  return (
    `\n\nThe room's glossary: wherever one of these terms occurs, write exactly its rendering in ` +
    `${target}, never another translation or spelling of it:\n${lines}`
  );
}

export function translationMessages(request: TranslateRequest): ChatMessage[] {
  const source = languageName(request.sourceLanguage);
  const target = languageName(request.targetLanguage);
  return [
    {
      role: 'system',
      content:
        `You translate messages in a live group chat from ${source} (${request.sourceLanguage}) ` +
        `into ${target} (${request.targetLanguage}). Translate the meaning naturally, keeping the speaker's ` +
        `tone and politeness level. Use the earlier messages only to resolve names, pronouns and tone; ` +
        `never translate them. Reply with the ${target} translation only: no quotes, notes or explanations.` +
        glossaryInstruction(request.glossary, target),
    },
    {
      role: 'user',
      content:
        `Earlier messages (context, oldest first):\n${contextBlock(request.context)}\n\n` +
        `Translate this message into ${target} (${request.targetLanguage}):\n${request.text}`,
    },
  ];
}

export function summaryMessages(request: SummaryRequest): ChatMessage[] {
  const language = languageName(request.language);
  return [
    {
      role: 'system',
      content:
        `You help someone who just came back to a live group chat, written in several languages, catch ` +
        `up. Summarise the messages you are given in ${language} (${request.language}): a few short ` +
        `sentences or bullet points on what was discussed and decided, naming who said what where it ` +
        `matters. Do not invent anything that is not in the messages. Reply with the summary only.` +
        glossaryInstruction(request.glossary, language),
    },
    { role: 'user', content: `Messages (oldest first):\n${contextBlock(request.messages)}` },
  ];
}

export function noteMessages(request: NoteRequest): ChatMessage[] {
  const source = languageName(request.sourceLanguage);
  const noteLanguage = languageName(request.noteLanguage);
  return [
    {
      role: 'system',
      content:
        `You help people who do not speak ${source} follow a live group chat. For the last message, decide ` +
        `whether a listener reading a translation would miss something: an idiom, a politeness or formality ` +
        `level, a pun or wordplay, a cultural reference, or an ambiguity. Most messages have nothing like ` +
        `that: then reply with exactly ${NO_NOTE_SENTINEL}. Otherwise reply with one short hint (at most two ` +
        `sentences) written in ${noteLanguage} (${request.noteLanguage}), without quotes or preamble.`,
    },
    {
      role: 'user',
      content:
        `Earlier messages (context, oldest first):\n${contextBlock(request.context)}\n\n` +
        `Message (${source}):\n${request.text}`,
    },
  ];
}

/** The model's answer to `noteMessages` as a note, or null for "no note". */
export function parseNote(answer: string): string | null {
  const text = answer
    .trim()
    // quotes around the note: " ' “ ” 「 『 and " ' “ ” 」 』 (\u escapes: see build.mjs)
    .replace(/^["'\u201C\u201D\u300C\u300E]+|["'\u201C\u201D\u300D\u300F]+$/gu, '')
    .trim();
  if (text === '') return null;
  const bare = text.replace(/[.\u3002!\uFF01]+$/u, '').trim(); // . 。 ! ！
  if (bare.toUpperCase() === NO_NOTE_SENTINEL || /^(none|no note|n\/a|\u306A\u3057)$/iu.test(bare))
    return null; // なし
  return text.length > MAX_NOTE_LENGTH ? `${text.slice(0, MAX_NOTE_LENGTH - 1)}…` : text;
}
