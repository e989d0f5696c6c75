/** Members: the admin area's list and view of members, deactivating and reactivating them, and the test mailbox. */
export { membersRouter } from './members.routes';
export { createMembersService, MEMBER_VIEW_PIECES, MEMBERS_MESSAGES, type MembersDeps, type MembersService } from './members.service';
