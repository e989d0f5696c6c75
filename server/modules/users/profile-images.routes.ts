/** The profile photo and header: uploads of the member, attached and made public. */
import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { MESSAGES } from '../../../generated/validation';
import { AppError } from '../../lib/errors';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireSelfOrAdmin } from '../../lib/permissions';
import { requireAuth } from './users.guards';
import type { MediaService } from '../media';
import { roleOf, toUserDto } from './users.mapper';
import { UserModel, type UserDoc } from './users.model';

export const HEADER_ASPECT = 1119 / 305;
/** How far a crop may be from 1119:305 (rounding of pixel sizes). */
const ASPECT_TOLERANCE = 0.02;
/** Another member's profile answers as one that does not exist (only they and admins change it). */
const USER_NOT_FOUND = 'User not found';

export function profileImagesRouter(config: AuthConfig, media: MediaService): Router {
  const router = Router();
  const auth = requireAuth(config);

  router.post('/user/update-photo', auth, async (req: ApiRequest<'updateUserPhoto'>, res: ApiResponse<'updateUserPhoto'>) => {
    requireSelfOrAdmin(req.auth, req.body.userId, USER_NOT_FOUND);
    const photo = await media.ownUnusedUpload(req.body.photoPath || undefined, req.auth!.userId, 'image', 'avatar', MESSAGES.selectPhoto);
    await media.attach([photo], `avatar:${req.body.userId}`, 'public');
    const user = await UserModel.findByIdAndUpdate(
      req.body.userId,
      { $set: { image: media.url(photo.thumbKeys?.mthumb ?? photo.key, true) } },
      { new: true },
    ).lean<UserDoc>();
    if (!user) throw new AppError(404, 'not_found', USER_NOT_FOUND);
    res.json({ message: MESSAGES.contentSaved, user: toUserDto(user, roleOf(config.adminEmails, user.email)) });
  });

  router.post('/user/update-header-image', auth, async (req: ApiRequest<'updateUserHeaderImage'>, res: ApiResponse<'updateUserHeaderImage'>) => {
    requireSelfOrAdmin(req.auth, req.body.userId, USER_NOT_FOUND);
    const original = await media.ownUnusedUpload(req.body.headerImage || undefined, req.auth!.userId, 'image', 'header', MESSAGES.uploadImageFirst);
    const edited = await media.ownUnusedUpload(req.body.headerImageEdited || undefined, req.auth!.userId, 'image', 'header', MESSAGES.uploadImageFirst);
    const ratio = (edited.width ?? 0) / (edited.height || 1);
    if (Math.abs(ratio / HEADER_ASPECT - 1) > ASPECT_TOLERANCE) {
      throw new AppError(400, 'bad_request', 'The header image must be cropped to 1119:305.', [
        { path: 'headerImageEdited', message: 'The header image must be cropped to 1119:305.' },
      ]);
    }
    await media.attach([original, edited], `header:${req.body.userId}`, 'public');
    const user = await UserModel.findByIdAndUpdate(
      req.body.userId,
      { $set: { headerImage: media.url(edited.key, true), headerImageOriginal: media.url(original.key, true) } },
      { new: true },
    ).lean<UserDoc>();
    if (!user) throw new AppError(404, 'not_found', USER_NOT_FOUND);
    res.json({ message: MESSAGES.contentSaved, user: toUserDto(user, roleOf(config.adminEmails, user.email)) });
  });

  return router;
}
