/* What XTalk's server and the standalone payment service share: the pieces each would otherwise repeat. */
export { checkAnswers } from './answer-writer.js';
export { errorBody, INTERNAL_MESSAGE, registerErrorShape, type ErrorShapeOptions } from './error-shape.js';
export {
  ledgerRows,
  toTxn,
  walletOf,
  type LedgerEntry,
  type LedgerResult,
  type LedgerRows,
  type NewTxn,
  type TxnRow,
} from './ledger-rows.js';
export { schemaRefusalOf, useZodSchemas, type SchemaRefusal } from './route-schemas.js';
export { OPENAPI_PATH, registerOpenApi, type ApiExamples, type OpenApiInfo } from './openapi-document.js';
export { openPostgres, type PostgresDb, type PostgresOptions } from './postgres.js';
export type { Queryable, Reader } from './sql.js';
