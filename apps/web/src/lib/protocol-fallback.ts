import { PROTOCOL_VERSION, versionsOfRefusal } from '@xtalk/protocol';

/*
 * The version the room client offers in its hello (docs/decisions/0146). A node of an older version (a
 * rolling deploy) refuses a newer one with 4400 naming what it speaks; the client then speaks the newest
 * of those instead of stopping, says so in the console, and offers its own again once a node of its
 * version answers.
 */
export class SpokenVersion {
  /** What the next hello offers. */
  value = PROTOCOL_VERSION;

  /** The newest version `reason` (a 4400's, or the error frame before it) names, when below `value`. */
  fallbackIn(reason: string): number | undefined {
    const served = versionsOfRefusal(reason);
    if (!served || served.max >= this.value || served.max < served.min) return undefined;
    return served.max;
  }

  /** Falls back to what `reason` names; false when it names nothing older to speak. */
  fallBack(reason: string): boolean {
    const fallback = this.fallbackIn(reason);
    if (fallback === undefined) return false;
    console.info(
      `[socket] this server speaks protocol ${fallback} at most; speaking ${fallback}, not ${this.value}`,
    );
    this.value = fallback;
    return true;
  }

  /** A READY said the server's version: a node of this client's version is back. */
  heard(serverVersion: number): void {
    this.value = Math.max(this.value, Math.min(PROTOCOL_VERSION, serverVersion));
  }
}
