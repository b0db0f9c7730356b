/* What the page loads on the first message that calls for an alert (use-message-notifications.ts). */
export { playChime } from './chime';
export { closeNotifications, showNotification } from './notifier';
