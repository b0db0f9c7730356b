import { OpenAiProvider } from '../openai-provider.js';
import type { FakeOpenAiServer } from './fake-openai-server.js';

/** The openai engine pointed at a fake OpenAI-compatible server, with the model names tests expect. */
export function openAiProviderFor(server: FakeOpenAiServer): OpenAiProvider {
  return new OpenAiProvider({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    translationModel: 'test-translate-model',
    ttsModel: 'test-tts-model',
    ttsVoice: 'test-voice',
    transcriptionModel: 'whisper-1',
  });
}
