import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from './unreachable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it('knows a refused, reset or timed-out link and a server shutting down', () => {
    expect(isDatabaseUnreachable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnreachable(withCode('ECONNRESET'))).toBe(true);
    expect(
      isDatabaseUnreachable(withCode('57P01', 'terminating connection due to administrator command')),
    ).toBe(true);
    expect(isDatabaseUnreachable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated due to connection timeout'))).toBe(true);
  });

  it('does not take a wrong statement or a constraint for an outage', () => {
    expect(isDatabaseUnreachable(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isDatabaseUnreachable(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnreachable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });
});
