import { describe, expect, it } from 'vitest';
import { handlingOf, mayKeep, type RequestFacts } from './requests';

/*
 * What the service worker answers itself and what it leaves to the network: whatever it leaves is never
 * cached, so a wrong 'asset' or 'page' here would put API answers or audio into Cache Storage.
 */

const ORIGIN = 'https://xtalk.example';

function request(path: string, facts: Partial<Omit<RequestFacts, 'headers'>> & { range?: boolean } = {}) {
  const { range, ...rest } = facts;
  return {
    method: 'GET',
    url: path.startsWith('http') ? path : `${ORIGIN}${path}`,
    mode: 'cors',
    destination: 'script',
    headers: { has: (name: string) => range === true && name === 'range' },
    ...rest,
  };
}

describe('the service worker’s handling of a request', () => {
  it('answers page loads (network first) and the hashed build files (cache first)', () => {
    expect(
      handlingOf(request('/translate?r=ABCDEFG', { mode: 'navigate', destination: 'document' }), ORIGIN),
    ).toBe('page');
    expect(handlingOf(request('/', { mode: 'navigate', destination: 'document' }), ORIGIN)).toBe('page');
    expect(handlingOf(request('/assets/index-abc123.js'), ORIGIN)).toBe('asset');
    expect(handlingOf(request('/assets/index-abc123.css', { destination: 'style' }), ORIGIN)).toBe('asset');
  });

  it('leaves the API, the socket, sign-in and audio to the network, even as page loads', () => {
    for (const path of [
      '/api/me',
      '/api/rooms/history',
      '/xtalk_ws',
      '/ws',
      '/auth/google/login',
      '/auth/some-token',
      '/audio/clip.ogg',
    ]) {
      expect(handlingOf(request(path), ORIGIN), path).toBe('network');
      expect(handlingOf(request(path, { mode: 'navigate', destination: 'document' }), ORIGIN), path).toBe(
        'network',
      );
    }
  });

  it('leaves everything that is not a plain same-origin GET to the network', () => {
    expect(handlingOf(request('/assets/index-abc123.js', { method: 'POST' }), ORIGIN)).toBe('network');
    expect(handlingOf(request('/assets/index-abc123.js', { method: 'HEAD' }), ORIGIN)).toBe('network');
    expect(handlingOf(request('https://challenges.cloudflare.com/assets/x.js'), ORIGIN)).toBe('network');
    expect(handlingOf(request('/assets/voice-abc123.ogg', { range: true }), ORIGIN)).toBe('network');
    expect(handlingOf(request('/assets/chime-abc123.mp3', { destination: 'audio' }), ORIGIN)).toBe('network');
    // files outside the hashed folder may change under the same name
    expect(handlingOf(request('/manifest.webmanifest', { destination: 'manifest' }), ORIGIN)).toBe('network');
    expect(handlingOf(request('/favicon-32.png', { destination: 'image' }), ORIGIN)).toBe('network');
  });

  it('keeps only whole same-origin successes that are not audio', () => {
    const answer = (status: number, type: ResponseType, contentType: string) => ({
      status,
      type,
      headers: new Headers({ 'content-type': contentType }),
    });
    expect(mayKeep(answer(200, 'basic', 'text/javascript'))).toBe(true);
    expect(mayKeep(answer(206, 'basic', 'text/javascript'))).toBe(false);
    expect(mayKeep(answer(404, 'basic', 'application/json'))).toBe(false);
    expect(mayKeep(answer(200, 'opaque', 'text/javascript'))).toBe(false);
    expect(mayKeep(answer(200, 'basic', 'audio/ogg'))).toBe(false);
    expect(mayKeep(answer(200, 'basic', 'audio/mpeg'))).toBe(false);
  });
});
