/** Users: accounts' public data, look-ups and the user extension. */
export { usersRouter } from './users.routes';
export { UserModel, UserExtModel, type UserDoc } from './users.model';
export { toPublicUserDto } from './users.mapper';
export * as usersService from './users.service';
export { profileImagesRouter } from './profile-images.routes';
