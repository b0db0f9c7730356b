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
