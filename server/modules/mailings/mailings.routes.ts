import express, { Router, type Request, type Response } from 'express';
import { unsubscribedPage, unsubscribeQuestionPage, unsubscribeRefusedPage } from './mailings.mails';
import type { MailingsService } from './mailings.service';

/** Where a mail's unsubscribe link leads: the path of its List-Unsubscribe header and of the link at its foot. */
export const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

/** A page of the unsubscribe link: never cached (it names the member's address). */
const sendPage = (res: Response, status: number, html: string) => {
  res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
};

const tokenOf = (req: Request) => (typeof req.query.token === 'string' && req.query.token.length <= 200 ? req.query.token : '');

/**
 * The mails' unsubscribe link, one address for both uses, as RFC 8058 asks: opened in a browser it asks first (a
 * mail scanner that opens links changes nothing); POSTed, by the page's button or by a mail app's one-click
 * Unsubscribe (body `List-Unsubscribe=One-Click`), it turns that kind of mail off and answers 200. Pages for a
 * person, not calls of the API: they live beside the app's pages, outside `/api`, as the sandbox checkout does.
 */
export function unsubscribeRouter(mailings: MailingsService, publicUrl: string): Router {
  const router = Router();

  router.get(UNSUBSCRIBE_PATH, async (req, res) => {
    const named = await mailings.readUnsubscribe(tokenOf(req));
    if (!named) return sendPage(res, 400, unsubscribeRefusedPage());
    sendPage(res, 200, unsubscribeQuestionPage(named.kind, named.email));
  });

  // The body is only the one-click form; the token in the address is what acts.
  router.post(UNSUBSCRIBE_PATH, express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }), async (req, res) => {
    const done = await mailings.unsubscribe(tokenOf(req));
    if (!done) return sendPage(res, 400, unsubscribeRefusedPage());
    sendPage(res, 200, unsubscribedPage(done.kind, publicUrl));
  });

  return router;
}
