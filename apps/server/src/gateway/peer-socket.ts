/**
 * The little the room logic needs from a WebSocket. The gateway adapts `ws` to it; tests use fakes, so the
 * protocol is tested without sockets and the gateway is tested with real ones.
 */
export interface PeerSocket {
  /** Sends a text frame; `data` is already-serialised JSON (a Buffer is sent as text, not re-encoded). */
  sendText(data: string | Buffer): void;
  sendBinary(data: Uint8Array): void;
  /** A text frame and, right after it with nothing between, a binary frame (a spoken sentence). */
  sendTextThenBinary(text: Buffer, binary: Buffer): void;
  close(code: number, reason: string): void;
  /** Bytes queued but not yet sent; a peer that never drains is dropped rather than buffered forever. */
  readonly bufferedAmount: number;
}
