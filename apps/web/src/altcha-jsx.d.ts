import type { DetailedHTMLProps, HTMLAttributes } from 'react';

// The altcha web component in JSX (its own React typings are not exported by the package).
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        auto?: 'off' | 'onfocus' | 'onload' | 'onsubmit';
        name?: string;
        configuration?: string;
        language?: string;
      };
    }
  }
}
