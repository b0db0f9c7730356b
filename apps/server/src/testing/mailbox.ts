import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listenOnFreePort } from './free-port.js';

/*
 * A real SMTP server on 127.0.0.1 for tests (smtp-server): it accepts every mail and hands them out in
 * order of arrival, decoded (mailparser), so a test reads the links a person would click.
 */

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailbox {
  /** SMTP_URL for the server under test. */
  url: string;
  /** The next mail to arrive (or already arrived and not yet taken). */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const arrived: ReceivedMail[] = [];
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          };
          const waiter = waiting.shift();
          if (waiter) waiter(mail);
          else arrived.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await listenOnFreePort(server.server);
  return {
    url: `smtp://tester:secret@127.0.0.1:${port}`,
    next(timeoutMs = 15_000) {
      const ready = arrived.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived')), timeoutMs);
        waiting.push((mail) => {
          clearTimeout(timer);
          resolve(mail);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The `token=` of the first link in a mail. */
export function tokenOf(mail: ReceivedMail): string {
  const match = /[?&]token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no token link in: ${mail.text}`);
  return match[1]!;
}
