import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations.js';

/*
 * A shipped migration never changes: a database that ran it would never run the new text. Some of them
 * are built from statements another package exports (the payment service's tables), so the text is
 * pinned here, byte for byte, by its digest.
 */

const SHIPPED: Record<number, string> = {
  1: '1157ac98186f4837621644fcad4b79713688189201361734193de7e1b9cd41d9',
  2: '99bbdc57ae0825a57e4755df4fab8622b6aa19de246eea3dd16500f2d911463c',
  3: '284fdcab337d4b15a45bfbc8c5d85d6c8b392740d82f97253bd97ae9b99e6e92',
  4: '108c9defded35684a23dba094254ee93e977d514f7835b83c25df4ab68b28c34',
  5: '70792181fe4c0ab63002cde4c6a3b478c75aff20a99f0a04abeb975ca6ae4b60',
  6: 'cbc9ff98cd2dd0c982c7b119c276f8098abcdf208fd0180f17b9ba15a6d6938c',
  7: 'd5cdc60543eb300cd36a7fe8007702469d5df4d9f795748927fa70b9342954dc',
  9: '9052570b7ae65db8e286fd7a53225b7e35f25fc64eabb771f23e1afcd466a2bf',
  10: '9d958ed21cd48878c665f88b794c02c32814a71651027f5d01c29acb302d8eb4',
  11: '869e27f75ea6f966ec4406451448d8be46b48234d89ea3275702d5c3aa2d26ff',
};

describe('shipped migrations', () => {
  it('keep their ids and their text byte for byte', () => {
    for (const [id, digest] of Object.entries(SHIPPED)) {
      const migration = migrations.find((candidate) => candidate.id === Number(id));
      expect(migration, `migration ${id}`).toBeDefined();
      expect(createHash('sha256').update(migration!.sql).digest('hex'), `migration ${id}`).toBe(digest);
    }
  });
});
