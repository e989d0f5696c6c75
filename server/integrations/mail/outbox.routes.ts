/**
 * /dev/mail: the outbox as web pages (development only; never mounted in production). The mails hold
 * activation and password-reset links, so by default only a client on this machine may read them.
 */
import { Router, type Request } from 'express';
import { listOutbox, readOutboxMail } from './outbox.driver';
import { escapeHtml } from '../../lib/html';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Knack outbox</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f7f6fb;color:#161326}
main{max-width:860px;margin:24px auto;padding:0 16px}h1{font-size:22px}table{width:100%;border-collapse:collapse;background:#fff}
td,th{padding:10px 12px;border-bottom:1px solid #e9e7f2;text-align:left}a{color:#5b3cf5}.meta{color:#5d5a6e}
.mail{background:#fff;border:1px solid #e9e7f2;border-radius:12px;padding:20px}</style></head>
<body><main>${body}</main></body></html>`;

/** True for 127.0.0.0/8 and ::1, written plainly or as IPv4 mapped into IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

/**
 * `openToAll` (DEV_MAIL=true) serves the outbox to any client, e.g. a phone on the LAN testing sign-up.
 * The socket's own address decides, not X-Forwarded-For, which any client can write.
 */
export function outboxRouter(dir: string, { openToAll = false }: { openToAll?: boolean } = {}): Router {
  const router = Router();
  const allowed = (req: Request) => openToAll || isLoopback(req.socket.remoteAddress);
  router.use('/dev/mail', (req, res, next) => {
    if (allowed(req)) return next();
    res
      .status(403)
      .type('html')
      .send(
        page(
          'Not here',
          '<h1>The outbox is open only on the machine Knack runs on.</h1><p class="meta">Start Knack with DEV_MAIL=true to read it from other machines.</p>',
        ),
      );
  });
  // `?to=` lists one address's mail only (the admin area's test address links it).
  router.get('/dev/mail', async (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to.trim().toLowerCase() : '';
    const mails = (await listOutbox(dir)).filter((mail) => !to || mail.to.toLowerCase() === to);
    const rows = mails
      .map(
        (m) =>
          `<tr><td class="meta">${escapeHtml(new Date(m.sentAt).toLocaleString('en-US'))}</td><td>${escapeHtml(m.to)}</td><td><a href="/dev/mail/${m.id}">${escapeHtml(m.subject)}</a></td></tr>`,
      )
      .join('');
    res.type('html').send(
      page(
        'Outbox',
        `<h1>Outbox</h1><p class="meta">Mails Knack sent while no SMTP server is configured (newest first). Set SMTP_URL to deliver them for real.</p>
        ${to ? `<p class="meta">Only the mail to ${escapeHtml(to)}. <a href="/dev/mail">Every mail</a></p>` : ''}
        ${mails.length ? `<table><thead><tr><th>Sent</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No mail yet.</p>'}`,
      ),
    );
  });
  router.get('/dev/mail/:id', async (req, res) => {
    const mail = await readOutboxMail(dir, req.params.id);
    if (!mail) {
      res.status(404).type('html').send(page('Not found', '<p>No such mail. <a href="/dev/mail">Back to the outbox</a></p>'));
      return;
    }
    // The body is our own template's HTML (user values escaped when it was made).
    res.type('html').send(
      page(
        mail.subject,
        `<p><a href="/dev/mail">&larr; Outbox</a></p><h1>${escapeHtml(mail.subject)}</h1>
        <p class="meta">To ${escapeHtml(mail.to)} · from ${escapeHtml(mail.from)} · ${escapeHtml(new Date(mail.sentAt).toLocaleString('en-US'))}</p>
        <div class="mail">${mail.html}</div>`,
      ),
    );
  });
  return router;
}
