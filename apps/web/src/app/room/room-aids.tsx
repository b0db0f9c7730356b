import type { ClientFrame } from '@xtalk/protocol';
import { useState } from 'react';
import { lazyDialog } from '#web/components/ui/lazy-dialog';
import { CatchUpOffer, CatchUpPanel } from '#web/features/catch-up/components/catch-up-panel';
import type { CatchUp } from '#web/features/catch-up/hooks/use-catch-up';
import { fetchGlossary } from '#web/features/glossary/api/glossary-api';

// Loaded when first opened (decision 0084), like the room's other dialogs.
const GlossaryDialog = lazyDialog(
  async () => (await import('#web/features/glossary/components/glossary-dialog')).GlossaryDialog,
);

/**
 * The room's glossary and "Catch me up": what the header's menu opens, and the transcript's glossary.
 * `listening` is the language the summary is written in.
 */
export function useRoomAids(options: {
  catchUp: CatchUp;
  connection: { roomId: string | null; send: (frame: ClientFrame) => boolean };
  token: string;
  listening: string;
  glossaryVersion: number;
}) {
  const { catchUp, connection, token } = options;
  const [glossaryOpen, setGlossaryOpen] = useState(false);
  const catchMeUp = () => catchUp.start(connection.send, options.listening);
  return {
    ...options,
    glossaryOpen,
    closeGlossary: () => setGlossaryOpen(false),
    catchMeUp,
    header: {
      onGlossary: () => setGlossaryOpen(true),
      onCatchUp: catchMeUp,
      loadGlossary: async () =>
        connection.roomId ? (await fetchGlossary(token, connection.roomId)).entries : [],
    },
  };
}

/** Under the room's bar: the offer to catch up and the summary; and the glossary dialog when open. */
export function RoomAids(props: {
  aids: ReturnType<typeof useRoomAids>;
  isGuest: boolean;
  languages: readonly string[];
  onLogin: () => void;
}) {
  const { catchUp, connection, glossaryOpen } = props.aids;
  return (
    <>
      {catchUp.offered && !catchUp.summary.open && (
        <CatchUpOffer missed={catchUp.missed} onCatchUp={props.aids.catchMeUp} onDismiss={catchUp.dismiss} />
      )}
      <CatchUpPanel summary={catchUp.summary} onClose={catchUp.close} />
      {connection.roomId && (
        <GlossaryDialog
          open={glossaryOpen}
          onClose={props.aids.closeGlossary}
          token={props.aids.token}
          roomId={connection.roomId}
          isGuest={props.isGuest}
          languages={props.languages}
          version={props.aids.glossaryVersion}
          onLogin={props.onLogin}
        />
      )}
    </>
  );
}
