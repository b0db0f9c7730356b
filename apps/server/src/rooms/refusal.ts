/**
 * An error the chat path may throw to be answered with its own code instead of `internal` (a room too
 * busy to take more, say): the client is told exactly why, and that a retry later may work. It lives in
 * rooms, which throws it; realtime, which answers it, imports it from here (rooms never import realtime).
 */
export class FrameRefusal extends Error {
  constructor(
    readonly code: 'rate_limited' | 'message_invalid',
    message: string,
  ) {
    super(message);
  }
}
