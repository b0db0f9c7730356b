import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inlineScriptSources } from './inline-scripts.js';

/* The policy admits the built pages' inline scripts by hash, and a build's file can loosen it no further. */

const root = mkdtempSync(join(tmpdir(), 'xtalk-inline-scripts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const written = (sources: unknown) => {
  writeFileSync(join(root, 'inline-scripts.json'), JSON.stringify({ 'script-src': sources }));
  return root;
};

describe('the inline scripts the policy admits', () => {
  it('are none for a build without the file', () => {
    expect(inlineScriptSources(join(root, 'elsewhere'))).toEqual([]);
  });

  it("are the build's hashes", () => {
    const hash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
    expect(inlineScriptSources(written([hash]))).toEqual([hash]);
  });

  it.each([["'unsafe-inline'"], ['*'], ["'sha256-abc=' 'unsafe-inline'"], ['https://elsewhere.example']])(
    'refuse a file that names anything but a hash (%s)',
    (source) => {
      expect(() => inlineScriptSources(written([source]))).toThrow();
    },
  );
});
