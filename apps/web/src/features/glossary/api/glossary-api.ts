import { ApiPath, type GlossaryEntryInput, type GlossaryResponse } from '@xtalk/protocol';
import { request } from '#web/lib/api-client';

/** The room's glossary (members may read it). */
export function fetchGlossary(token: string, roomId: string): Promise<GlossaryResponse> {
  return request<GlossaryResponse>('GET', ApiPath.glossary(roomId), { token });
}

/** Replaces the room's glossary with `entries` (signed-in members); answers the saved list. */
export function saveGlossary(
  token: string,
  roomId: string,
  entries: GlossaryEntryInput[],
): Promise<GlossaryResponse> {
  return request<GlossaryResponse>('PUT', ApiPath.glossary(roomId), { token, body: { entries } });
}
