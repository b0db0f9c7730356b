/*
 * The settings menu's two links: to the creator and to the provider that powers it.
 * Set at build time (VITE_CREATOR_URL, VITE_POWERED_BY_NAME, VITE_POWERED_BY_URL) by whoever deploys
 * XTalk; the defaults point at this project and at the AI engine it runs by default (decision 0080).
 */
export const CREATOR_URL: string = import.meta.env.VITE_CREATOR_URL || 'https://github.com/xtalk-app/xtalk';

export const POWERED_BY = {
  name: (import.meta.env.VITE_POWERED_BY_NAME as string | undefined) || 'Transformers.js',
  url:
    (import.meta.env.VITE_POWERED_BY_URL as string | undefined) ||
    'https://huggingface.co/docs/transformers.js',
};
