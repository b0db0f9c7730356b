/** What a change of who is in a room announces: JOIN or LEAVE, and whom. */
export type PresenceEvent = 'JOIN' | 'LEAVE';

export interface Person {
  username: string;
  displayUsername: string;
}
