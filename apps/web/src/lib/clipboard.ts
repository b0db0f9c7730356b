/**
 * Copy text: the Clipboard API when the page is a secure context, otherwise the old
 * execCommand('copy') on a hidden textarea, which throws 'Copy command was unsuccessful.' when refused.
 */
export const COPY_REFUSED = 'Copy command was unsuccessful.';

export async function copyText(text: string): Promise<void> {
  if (globalThis.isSecureContext && navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    // execCommand is deprecated but is the only copy path on plain-http origins (e.g. a LAN address).
    const ok = document.execCommand('copy');
    if (!ok) throw new Error(COPY_REFUSED);
  } finally {
    area.remove();
  }
}
