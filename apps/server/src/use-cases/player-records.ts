import { ordersOf, pseudonymisePaymentRecords } from '@xtalk/payments';
import type { PlayerRecords } from '../accounts/index.js';
import { ledgerOf, ledgerPseudonym, pseudonymiseLedger, unspentPaidCredits } from '../credits/index.js';
import { authoredMessages, eraseRoomAuthor, joinedRooms } from '../rooms/index.js';

/*
 * What rooms, credits and the payment service hold of a person, joined for accounts' deletion and export
 * through the port accounts declares (accounts/own-data/player-records.ts). The ledger and the payment
 * records take the same pseudonym, so a deleted person's money still adds up across them. `announce`
 * is the composition's: the room hub that sends frames to every node is built after accounts.
 */
export const playerRecords = (announce: PlayerRecords['announce']): PlayerRecords => ({
  announce,
  unspentPaidCredits,
  async erase(tx, userId, names) {
    const notices = await eraseRoomAuthor(tx, userId, names);
    const pseudonym = ledgerPseudonym();
    await pseudonymiseLedger(tx, userId, pseudonym);
    await pseudonymisePaymentRecords(tx, userId, pseudonym);
    return notices;
  },
  rooms: joinedRooms,
  messages: authoredMessages,
  ledger: ledgerOf,
  orders: ordersOf,
});
