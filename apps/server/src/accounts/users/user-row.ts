import type { Provider } from '@xtalk/protocol';

/** A user as the users table holds it (the columns every read selects). */
export interface UserRow {
  id: string;
  provider: Provider;
  subject: string;
  username: string;
  display_name: string | null;
  name: string;
}
