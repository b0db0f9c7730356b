/** Three bouncing dots and a label while our last message is being processed. */
export function TypingIndicator({ active, label }: { active: boolean; label: string }) {
  if (!active) return null;
  return (
    <div
      data-testid="typing-indicator"
      role="status"
      className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400"
    >
      <span className="flex gap-1" aria-hidden="true">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 animate-bounce rounded-full bg-indigo-500"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      {label}
    </div>
  );
}
