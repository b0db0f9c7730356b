/*
 * The payment service's tables, as the statements that made them. XTalk's server runs them inside its own
 * migrations 3 and 4 (they were written there first, beside the credits ledger's tables, and a database
 * that ran them must never see them again); the standalone service runs the same text through
 * standalone/migrate.ts. Never edit a shipped statement: add the next.
 */

/** Orders for credit packages and the players' withdraw requests (XTalk's migration 3, after the ledger's). */
export const ORDERS_AND_WITHDRAWALS_SQL = `
      create table credit_orders (
        id text primary key,
        user_id text not null,
        amount integer not null,
        price_jpy integer not null,
        product_id text not null,
        provider text not null,
        provider_ref text,
        status text not null default 'pending',
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index credit_orders_user_idx on credit_orders (user_id, created_at desc);
      create table credit_withdraw_requests (
        id text primary key,
        user_id text not null,
        currency text not null,
        amount integer not null,
        note text,
        status text not null default 'pending',
        created_at timestamptz not null
      );
    `;

/** App-store purchases, servers' two-phase transactions and withdraw decisions (XTalk's migration 4). */
export const SERVICE_TABLES_SQL = `
      -- one row per app-store purchase; (platform, purchase_key) makes a purchase credit once, whoever asks
      create table store_purchases (
        id text primary key,
        platform text not null,
        purchase_key text not null,
        app_id text not null,
        user_id text not null,
        product_id text not null,
        order_id text,
        quantity integer not null,
        credits integer not null,
        status text not null,
        consume_error text,
        ledger_txn_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (platform, purchase_key)
      );
      create index store_purchases_user_idx on store_purchases (user_id, app_id, created_at desc);
      -- a server's two-phase transactions: created pending, moved through the ledger on confirm
      create table payment_txns (
        id text primary key,
        user_id text not null,
        idempotency_key text not null,
        amount bigint not null,
        part text,
        cause text not null,
        reference text,
        status text not null,
        ledger_txn_id text,
        reversal_txn_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (user_id, idempotency_key)
      );
      create index payment_txns_user_idx on payment_txns (user_id, created_at desc);
      alter table credit_withdraw_requests add column decided_at timestamptz;
      alter table credit_withdraw_requests add column decision_note text;
      alter table credit_withdraw_requests add column ledger_txn_id text;
    `;

/**
 * The standalone service's own ledger (standalone/ledger.ts): append-only rows, one per change, each with
 * an idempotency key unique per account; a balance is the sum of its rows. Mounted in XTalk's server, the
 * service uses the server's ledger instead and this table does not exist.
 */
export const STANDALONE_LEDGER_SQL = `
      create table payment_ledger (
        seq bigserial unique,
        id text primary key,
        user_id text not null,
        kind text not null,
        free_delta bigint not null,
        premium_delta bigint not null,
        cause text not null,
        reference text,
        idempotency_key text not null,
        reverses text unique references payment_ledger(id),
        created_at timestamptz not null,
        unique (user_id, idempotency_key)
      );
      create index payment_ledger_user_idx on payment_ledger (user_id, seq desc);
    `;
