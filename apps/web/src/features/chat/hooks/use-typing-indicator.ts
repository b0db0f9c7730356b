import { TYPING_INDICATOR_MS } from '@xtalk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Typing indicator: set after sending; cleared by any incoming message or after 5 s. */
export function useTypingIndicator(timeoutMs: number = TYPING_INDICATOR_MS) {
  const [isTyping, setIsTyping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
    setIsTyping(false);
  }, []);

  const start = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    setIsTyping(true);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setIsTyping(false);
    }, timeoutMs);
  }, [timeoutMs]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { isTyping, start, clear };
}
