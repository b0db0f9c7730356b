import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/*
 * Toasts are given words that say themselves when shown (lib/toast-words.tsx), not strings: a test that
 * mocks sonner matches a toast by the text those words render to now.
 */
export const toastSaying = (text: string) => ({
  asymmetricMatch: (message: ReactNode) => renderToStaticMarkup(<>{message}</>) === text,
  toString: () => `toast saying "${text}"`,
  toAsymmetricMatcher: () => `toast saying "${text}"`,
});
