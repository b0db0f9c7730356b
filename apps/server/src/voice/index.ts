export { createVoiceInput, isNearSilent, NO_SPEECH_MESSAGE, DURATION_MARGIN_SECONDS } from './voice-input.js';
export type { VoiceInputDeps } from './voice-input.js';
export { createVoiceHandlers, voiceHandlersFor } from './voice-handlers.js';
export { analyseVoice, DEFAULT_VOICED_OPTIONS } from './voiced.js';
export type { VoicedAnalysis, VoicedOptions } from './voiced.js';
export { isKnownHallucination, hasWords } from './hallucinations.js';
