import { afterAll, afterEach, expect } from 'vitest';
import { takePolicyViolations } from './lib/browser.js';

/* Every e2e file: a Content-Security-Policy violation fails the test it happened in. */

function expectNoPolicyViolations() {
  expect(takePolicyViolations(), 'Content-Security-Policy violations').toEqual([]);
}
afterEach(expectNoPolicyViolations);
afterAll(expectNoPolicyViolations);
