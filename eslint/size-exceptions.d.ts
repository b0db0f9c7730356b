// Types of size-exceptions.js for the TypeScript that reads it (its lint test).
export interface SizeException {
  files: string[];
  reason: string;
}
export declare const sizeExceptions: SizeException[];
