import { PROTOCOL_VERSION, protocolRefusal } from '@xtalk/protocol';

/**
 * The versioned handshake (docs/decisions/0060-protocol-version-handshake.md). A setUsername without
 * `protocolVersion` comes from a version-1 client, written before the field existed: it is served while
 * `minVersion` is 1 (the additive-protocol rule), and refused once an operator raises it. Returns the
 * refusal (sent with close code 4400, naming the versions served), or undefined when the version is served.
 */
export function checkProtocolVersion(version: number | undefined, minVersion: number): string | undefined {
  const spoken = version ?? 1;
  if (spoken >= minVersion && spoken <= PROTOCOL_VERSION) return undefined;
  return protocolRefusal(version, minVersion, PROTOCOL_VERSION);
}
