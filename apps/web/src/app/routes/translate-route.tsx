import { RequireAuth } from './require-auth';
import { TranslatePage } from './translate-page';

/** /translate: the room screen, for signed-in users (guests included) only. */
export function TranslateRoute() {
  return (
    <RequireAuth>
      <TranslatePage />
    </RequireAuth>
  );
}
