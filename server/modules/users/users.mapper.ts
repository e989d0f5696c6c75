import type { Role } from '../../lib/auth-context';
import type { Schemas } from '../../lib/openapi-types';
import type { UserDoc, UserExtDoc } from './users.model';
import { pendingEmailOf } from './users.identity';

export type { Role };

/** The one rule for roles: admins are the configured emails (ADMIN_EMAILS); no request can change it. */
export function roleOf(adminEmails: readonly string[], email: string): Role {
  return adminEmails.includes(email.toLowerCase()) ? 'admin' : 'user';
}

export function toUserDto(user: UserDoc, role: Role): Schemas['User'] {
  return {
    ...toPublicUserDto(user),
    email: user.email,
    isActive: user.isActive,
    sex: (user.sex as 'M' | 'W' | null) ?? null,
    birthday: user.birthday ? user.birthday.toISOString().slice(0, 10) : null,
    role,
    updated: user.updated.toISOString(),
    willReceiveNews: user.willReceiveNews ?? true,
    willReceivePromotes: user.willReceivePromotes ?? false,
    willReceiveDigest: user.willReceiveDigest ?? true,
    willReceiveStatements: user.willReceiveStatements ?? true,
    willReceivePayoutNotices: user.willReceivePayoutNotices ?? true,
    pendingEmail: pendingEmailOf(user),
  };
}

export function toPublicUserDto(user: UserDoc): Schemas['PublicUser'] {
  return {
    id: String(user._id),
    username: user.username,
    fullName: user.fullName,
    firstName: user.firstName,
    lastName: user.lastName,
    image: user.image ?? null,
    headerImage: user.headerImage ?? null,
    bio: user.bio,
    userType: user.userType,
    social: {
      facebook: user.social?.facebook ?? '',
      twitter: user.social?.twitter ?? '',
      linkedin: user.social?.linkedin ?? '',
      instagram: user.social?.instagram ?? '',
    },
  };
}

export function toMemberMatchDto(member: Pick<UserDoc, '_id' | 'username' | 'fullName' | 'image'>): Schemas['MemberMatch'] {
  return { id: String(member._id), username: member.username, fullName: member.fullName, image: member.image ?? null };
}

export function toUserExtDto(ext: Pick<UserExtDoc, 'country' | 'city' | 'state' | 'timezone' | 'pCredit' | 'sCredit'> | null): Schemas['UserExt'] {
  return {
    country: ext?.country ?? null,
    city: ext?.city ?? '',
    state: ext?.state ?? '',
    timezone: ext?.timezone ?? null,
    pCredit: ext?.pCredit ?? 0,
    sCredit: ext?.sCredit ?? 0,
  };
}
