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
 * TEMPORARY: not decomposed yet. Listed so lint passes
 * meanwhile; each entry goes when its file is split by meaning, and nothing new is added here.
 */
export const undecomposedSizeExceptions = [
  {
    files: [
      'apps/server/src/ai/openai-realtime.ts',
      'apps/server/src/accounts/sign-in/account-routes.ts',
      'apps/server/src/translation/service.openai.test.ts',
      'apps/server/src/translation/service.ts',
      'apps/web/src/features/auth/components/email-form.tsx',
      'apps/web/src/features/auth/components/guest-login.tsx',
      'apps/web/src/features/auth/components/wallet-sign-in.tsx',
      'apps/web/src/features/chat/components/message-item.tsx',
      'apps/web/src/features/chat/utils/messages-reducer.ts',
      'apps/web/src/features/settings/components/settings-menu.tsx',
      'apps/web/src/lib/socket-client.ts',
      'apps/server/src/ai/testing/fake-openai-server.ts',
      'apps/server/src/ai/testing/fake-realtime.ts',
      'apps/server/src/accounts/sign-in/sign-in.test.ts',
      'apps/server/src/realtime/connection-frames.test.ts',
      'apps/web/src/app/routes/translate-page.tsx',
      'apps/web/src/features/credits/components/credit-dialog.tsx',
      'apps/web/src/features/room/hooks/use-room-connection.ts',
      'apps/web/src/features/settings/components/profile-dialog.tsx',
      'apps/web/src/features/voice/utils/recorder-machine.ts',
    ],
    reason: 'not decomposed yet: each is to be split by meaning, then leaves this list',
  },
];
