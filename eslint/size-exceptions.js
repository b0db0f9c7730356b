// The files that may exceed the size rules (docs/decisions/0193-sizes-by-design.md), each with its reason.
// The list stays short: a long file or function is split by meaning, and an entry here is for what has no
// meaningful parts (a catalogue, a forward-only history).

/** Files whose length is their content, not a design left undone. */
export const sizeExceptions = [
  {
    files: ['apps/server/src/store/migrations.ts'],
    reason: 'forward-only history: each migration is written once and never edited or moved',
  },
];

/**
 * TEMPORARY: being decomposed on another branch. The lead removes each entry as that branch lands; nothing
 * is added here except for work in flight elsewhere.
 */
export const temporarySizeExceptions = [
  { files: ['apps/server/src/payments/**'], reason: 'being decomposed on another branch (payments)' },
  {
    files: ['apps/web/src/features/settings/components/settings-menu.tsx'],
    reason: 'being decomposed on another branch (notify)',
  },
  {
    files: [
      'apps/web/src/features/chat/utils/messages-reducer.ts',
      'apps/web/src/features/chat/components/message-item.tsx',
    ],
    reason: 'being decomposed on another branch (failfix)',
  },
  {
    files: [
      'apps/web/src/features/auth/**',
      'apps/server/src/accounts/sign-in/account-routes.ts',
      'apps/server/src/accounts/sign-in/oidc.ts',
    ],
    reason: 'being decomposed on another branch (signin)',
  },
  {
    files: [
      'e2e/harness.ts',
      'apps/server/src/translation/**',
      'apps/server/src/test/multi-node.services.ts',
      'apps/server/src/test/glossary*',
      'bench/cluster*.ts',
      'bench/fanout*.ts',
      'bench/lib/**',
      'apps/web/src/lib/socket-client*.ts',
      'apps/web/src/lib/socket-handover.test.ts',
      'apps/server/src/realtime/hot-rooms.ts',
      'apps/server/src/realtime/presence-announcer.ts',
      'apps/web/src/components/ui/menu.tsx',
      'apps/web/src/components/ui/dropdown-menu.tsx',
    ],
    reason: 'being decomposed on another branch (tidy)',
  },
];

/**
 * TEMPORARY: not decomposed yet; the sizes branch stopped before reaching them. Listed so lint passes
 * meanwhile; each entry goes when its file is split by meaning, and nothing new is added here.
 */
export const undecomposedSizeExceptions = [
  {
    files: [
      'apps/server/src/ai/openai-realtime.ts',
      'apps/server/src/ai/testing/fake-openai-server.ts',
      'apps/server/src/ai/testing/fake-realtime.ts',
      'apps/server/src/accounts/sign-in/sign-in.test.ts',
      'apps/server/src/realtime/connection-frames.test.ts',
      'apps/web/src/app/routes/translate-page.tsx',
      'apps/web/src/features/credits/components/credit-dialog.tsx',
      'apps/web/src/features/history/components/past-rooms-dialog.tsx',
      'apps/web/src/features/invite/components/invite-dialog.tsx',
      'apps/web/src/features/room/hooks/use-outbox.ts',
      'apps/web/src/features/room/hooks/use-room-connection.ts',
      'apps/web/src/features/settings/components/profile-dialog.tsx',
      'apps/web/src/features/voice/utils/recorder-machine.ts',
      'bench/chat-load.ts',
      'bench/flood-run.ts',
      'bench/report.ts',
      'bench/translation-e2e.ts',
      'bench/translation-run.ts',
      'bench/ws-load.ts',
    ],
    reason: 'not decomposed yet: the sizes branch stopped before reaching it',
  },
];
