import type { ServerFrame } from '@xtalk/protocol';
import { notifies, type MessageNotification, type NotifyingMessage } from './notify-rules';

/** A notification to show, and whether it is its message's first (the chime is for a first only). */
export interface DueNotification {
  notification: MessageNotification;
  first: boolean;
}

type ChatLike = { kind: string; id: number | string };
const isMessage = (item: ChatLike): item is NotifyingMessage & { kind: 'message' } => item.kind === 'message';

/**
 * Which messages notify, from the room's frames in their order: a message from someone else that arrives
 * live (after the join's READY, so never the history a join or a room switch replays) while the page is
 * hidden. Each such message keeps what it last showed, so a later text of it (its translation, a
 * correction) is shown again under the same tag, and an unchanged one is not.
 */
export class NotificationLedger {
  private live = false;
  /** The room joined, as its READY named it. */
  private roomId = '';
  private readonly heard = new Set<number>();
  /** The messages that notify, with the text they last showed ('' before the first). */
  private readonly shown = new Map<number, string>();

  /** A frame of the room, as it arrives; `hidden`: whether the page is hidden then; `me`: who reads. */
  onFrame(frame: ServerFrame, { hidden, me }: { hidden: boolean; me: string }): void {
    if (frame.type === 'system' && frame.message === 'READY') {
      this.live = true;
      this.roomId = frame.roomId ?? this.roomId;
    }
    if (frame.type !== 'message' || this.heard.has(frame.id)) return;
    this.heard.add(frame.id);
    if (this.live && hidden && notifies(frame, me)) this.shown.set(frame.id, '');
  }

  /** Another room or a fresh join: what follows is history until its READY. */
  newSession(): void {
    this.live = false;
    this.heard.clear();
    this.shown.clear();
  }

  /** The page is seen again: what it notified is read. */
  seen(): void {
    this.shown.clear();
  }

  /** Whether any message notifies now. */
  get pending(): boolean {
    return this.shown.size > 0;
  }

  /** The notifications whose text differs from what they last showed; they count as shown from now. */
  due(
    items: readonly ChatLike[],
    render: (message: NotifyingMessage, roomId: string) => MessageNotification,
  ): DueNotification[] {
    const due: DueNotification[] = [];
    if (this.shown.size === 0) return due;
    for (const item of items) {
      if (!isMessage(item)) continue;
      const last = this.shown.get(item.id);
      if (last === undefined) continue;
      const notification = render(item, this.roomId);
      const key = `${notification.title}\n${notification.body}`;
      if (key === last) continue;
      this.shown.set(item.id, key);
      due.push({ notification, first: last === '' });
    }
    return due;
  }
}
