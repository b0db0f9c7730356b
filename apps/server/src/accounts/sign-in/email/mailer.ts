import type { FastifyBaseLogger } from 'fastify';
import { lazyModule } from '../../../lazy-module.js';

/*
 * Outgoing mail (verification and reset links). With SMTP_URL it goes through nodemailer. Without it the
 * log says which mail was not sent and to whom; its text, whose link signs its reader in, is written
 * there only with MAIL_TO_LOG=on (a developer following the link on their own machine). Which of these
 * is in use is said once at start.
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(
  settings: { smtpUrl: string | undefined; from: string; toLog?: boolean },
  logger: FastifyBaseLogger,
): Mailer {
  if (!settings.smtpUrl && settings.toLog) {
    logger.warn('SMTP_URL is not set and MAIL_TO_LOG=on: account mails, with their links, go to this log');
    return {
      async send(mail) {
        logger.info(
          { mail: { from: settings.from, ...mail } },
          'mail not sent (no SMTP_URL); its text follows',
        );
      },
    };
  }
  if (!settings.smtpUrl) {
    logger.info('SMTP_URL is not set: account mails (verification, password reset) are not sent');
    return {
      async send(mail) {
        logger.warn({ to: mail.to, subject: mail.subject }, 'mail not sent (no SMTP_URL)');
      },
    };
  }
  const smtpUrl = settings.smtpUrl;
  // nodemailer is loaded only with SMTP_URL, in the background (decision 0116); a failed load is reported
  // by the first mail, which tries again
  const transport = lazyModule(async () => (await import('nodemailer')).default.createTransport(smtpUrl));
  transport().catch(() => undefined);
  logger.info({ smtp: new URL(settings.smtpUrl).host }, 'account mails are sent through SMTP_URL');
  return {
    async send(mail) {
      await (await transport()).sendMail({ from: settings.from, ...mail });
    },
  };
}
