import { expect } from 'vitest';
import type { Db } from '../../store/index.js';

/** Every account's balance equals the sum of its rows, and no part is below zero. */
export async function expectBalancesEqualSumOfRows(db: Db): Promise<void> {
  const { rows } = await db.query<{ user_id: string; free: string; premium: string; sf: string; sp: string }>(
    `select a.user_id, a.free, a.premium, coalesce(sum(t.free_delta), 0) as sf,
            coalesce(sum(t.premium_delta), 0) as sp
       from credit_accounts a left join credit_txns t on t.user_id = a.user_id
      group by a.user_id, a.free, a.premium`,
  );
  for (const row of rows) {
    expect({ free: Number(row.free), premium: Number(row.premium) }, `account ${row.user_id}`).toEqual({
      free: Number(row.sf),
      premium: Number(row.sp),
    });
    expect(Number(row.free)).toBeGreaterThanOrEqual(0);
    expect(Number(row.premium)).toBeGreaterThanOrEqual(0);
  }
}
