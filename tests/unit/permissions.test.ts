import { Types } from 'mongoose';
import { AppError } from '../../server/lib/errors';
import { isAdmin, isOwnerOrAdmin, isSelfOrAdmin, requireAdmin, requireOwnerOrAdmin, requireSelfOrAdmin } from '../../server/lib/permissions';

const anaId = new Types.ObjectId();
const beaId = new Types.ObjectId();
const ana = { userId: anaId.toHexString(), role: 'user' as const };
const admin = { userId: new Types.ObjectId().toHexString(), role: 'admin' as const };

/** What a check throws, as the API answers it. */
function refusal(check: () => void) {
  try {
    check();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  return null;
}

describe('the yes-or-no checks', () => {
  it('when the caller is an admin, then every check says yes; a member or a visitor is not an admin', () => {
    expect([isAdmin(admin), isSelfOrAdmin(admin, beaId), isOwnerOrAdmin(admin, String(beaId))]).toEqual([true, true, true]);
    expect([isAdmin(ana), isAdmin(undefined), isAdmin(null)]).toEqual([false, false, false]);
  });

  it('when the id is the member’s own, as a string or an ObjectId, then yes; another member’s id or a visitor, no', () => {
    expect([isSelfOrAdmin(ana, anaId), isSelfOrAdmin(ana, anaId.toHexString()), isOwnerOrAdmin(ana, anaId)]).toEqual([true, true, true]);
    expect([isSelfOrAdmin(ana, beaId), isOwnerOrAdmin(ana, beaId.toHexString()), isSelfOrAdmin(undefined, anaId), isOwnerOrAdmin(null, anaId)]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the refusals', () => {
  it('when a member makes a call only admins may make, then 403 with the call’s message; an admin passes', () => {
    expect(refusal(() => requireAdmin(ana, 'Only admins can review flags.'))).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'Only admins can review flags.',
    });
    expect(refusal(() => requireAdmin(admin, 'Only admins can review flags.'))).toBeNull();
  });

  it('when a member asks for another member or another member’s thing, then 404 with the message of a missing one; the member and an admin pass', () => {
    expect(refusal(() => requireSelfOrAdmin(ana, beaId.toHexString(), 'This member does not exist.'))).toEqual({
      status: 404,
      code: 'not_found',
      message: 'This member does not exist.',
    });
    expect(refusal(() => requireOwnerOrAdmin(ana, beaId, 'Project not found'))).toEqual({ status: 404, code: 'not_found', message: 'Project not found' });
    expect([refusal(() => requireSelfOrAdmin(ana, anaId.toHexString(), 'x')), refusal(() => requireOwnerOrAdmin(ana, anaId, 'x'))]).toEqual([null, null]);
    expect([refusal(() => requireSelfOrAdmin(admin, beaId.toHexString(), 'x')), refusal(() => requireOwnerOrAdmin(admin, beaId, 'x'))]).toEqual([null, null]);
  });
});
