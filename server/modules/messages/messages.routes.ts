import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { MessagesService } from './messages.service';

/** The message calls: write and reply, the inbox and its counts, a thread, and each member's marks and blocks. */
export function messagesRouter(config: AuthConfig, messages: MessagesService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.post('/message/create', signedIn, async (req: ApiRequest<'createMessage'>, res: ApiResponse<'createMessage'>) => {
    res.status(201).json(await messages.create(req.auth!, req.body));
  });

  router.post('/message/reply', signedIn, async (req: ApiRequest<'replyMessage'>, res: ApiResponse<'replyMessage'>) => {
    res.status(201).json(await messages.reply(req.auth!, req.body));
  });

  router.get('/message/by-receiverId/:id', signedIn, async (req: ApiRequest<'getMessagesByReceiver'>, res: ApiResponse<'getMessagesByReceiver'>) => {
    res.json(await messages.inbox(req.auth!, req.params.id, req.query.cursor, req.query.limit));
  });

  router.get('/message/deleted-messages/:id', signedIn, async (req: ApiRequest<'getDeletedMessages'>, res: ApiResponse<'getDeletedMessages'>) => {
    res.json(await messages.deletedList(req.auth!, req.params.id, req.query.cursor, req.query.limit));
  });

  router.get('/message/counts/:id', signedIn, async (req: ApiRequest<'getMessageCounts'>, res: ApiResponse<'getMessageCounts'>) => {
    res.json(await messages.counts(req.auth!, req.params.id));
  });

  router.get('/message/thread/:id', signedIn, async (req: ApiRequest<'getMessageThread'>, res: ApiResponse<'getMessageThread'>) => {
    res.json(await messages.thread(req.auth!, req.params.id, req.query.cursor));
  });

  router.post('/message/delete/:id', signedIn, async (req: ApiRequest<'deleteMessage'>, res: ApiResponse<'deleteMessage'>) => {
    res.json(await messages.setDeleted(req.auth!, req.params.id, true));
  });

  router.post('/message/restore/:id', signedIn, async (req: ApiRequest<'restoreMessage'>, res: ApiResponse<'restoreMessage'>) => {
    res.json(await messages.setDeleted(req.auth!, req.params.id, false));
  });

  router.post('/message/set-important', signedIn, async (req: ApiRequest<'setMessageImportant'>, res: ApiResponse<'setMessageImportant'>) => {
    res.json(await messages.setImportant(req.auth!, req.body));
  });

  router.post('/message/update-read', signedIn, async (req: ApiRequest<'updateMessageRead'>, res: ApiResponse<'updateMessageRead'>) => {
    res.json(await messages.updateRead(req.auth!, req.body));
  });

  router.post('/message/block', signedIn, async (req: ApiRequest<'blockMessageSender'>, res: ApiResponse<'blockMessageSender'>) => {
    res.json(await messages.block(req.auth!, req.body));
  });

  router.get('/message/support-account', signedIn, async (_req: ApiRequest<'getSupportAccount'>, res: ApiResponse<'getSupportAccount'>) => {
    res.json(await messages.supportAccount());
  });

  return router;
}
