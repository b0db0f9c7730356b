/** Enters full screen, or leaves it when the page is there; a refusal is only logged. */
export async function toggleFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch (error) {
    console.warn('[settings] fullscreen refused', error);
  }
}
