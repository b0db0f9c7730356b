import { ordersOf, pseudonymisePaymentRecords } from '@xtalk/payments';
import type { PlayerRecords } from '../accounts/index.js';
import { ledgerOf, ledgerPseudonym, pseudonymiseLedger, unspentPaidCredits } from '../credits/index.js';
import { authoredMessages, eraseRoomAuthor, joinedRooms } from '../rooms/index.js';

/*
 * What rooms, credits and the payment service hold of a person, joined for accounts' deletion and export
 * through the port accounts declares (accounts/own-data/player-records.ts). The ledger and the payment
 * records take the same pseudonym, so a deleted person's money still adds up across them.
 */
export const playerRecords: PlayerRecords = {
  unspentPaidCredits,
  async erase(tx, userId, names) {
    await eraseRoomAuthor(tx, userId, names);
    const pseudonym = ledgerPseudonym();
    await pseudonymiseLedger(tx, userId, pseudonym);
    await pseudonymisePaymentRecords(tx, userId, pseudonym);
  },
  rooms: joinedRooms,
  messages: authoredMessages,
  ledger: ledgerOf,
  orders: ordersOf,
};
