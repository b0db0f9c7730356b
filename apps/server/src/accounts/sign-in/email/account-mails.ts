import type { FastifyBaseLogger } from 'fastify';
import { MailPagePath } from '@xtalk/protocol';
import type { Mailer } from './mailer.js';

/**
 * The mails of email accounts. Each is sent in the background: the answer must not wait on (or reveal)
 * the mail server.
 */
export function accountMails(mailer: Mailer, logger: FastifyBaseLogger) {
  function sendLater(to: string, subject: string, text: string): void {
    mailer
      .send({ to, subject, text })
      .catch((error: unknown) => logger.warn({ err: error }, 'sending an account mail failed'));
  }

  return {
    verification(email: string, baseUrl: string, token: string): void {
      sendLater(
        email,
        'Confirm your XTalk account',
        `Someone (hopefully you) created an XTalk account with this address.\n\n` +
          `Open this link to confirm it (valid for 24 hours):\n${baseUrl}${MailPagePath.verify}?token=${token}\n\n` +
          `If it was not you, ignore this mail.\n`,
      );
    },

    alreadyRegistered(email: string, baseUrl: string): void {
      sendLater(
        email,
        'Your XTalk account',
        `Someone (hopefully you) tried to create an XTalk account with this address, but it already has one.\n\n` +
          `Sign in at ${baseUrl}/login, or reset a forgotten password there.\n`,
      );
    },

    reset(email: string, baseUrl: string, token: string): void {
      sendLater(
        email,
        'Reset your XTalk password',
        `Open this link to choose a new password (valid for 1 hour):\n` +
          `${baseUrl}${MailPagePath.reset}?token=${token}\n\nIf you did not ask for this, ignore this mail.\n`,
      );
    },
  };
}
