import type { Content } from '../../lib/content';
import type { Plan, Subscription } from '../auth';

export type ContentSetting = Content['setting'];

/** Who can see a piece: one of three, exclusive. */
export type Audience = 'public' | 'followers' | 'private';

export const AUDIENCES: { value: Audience; label: string; hint: string }[] = [
  { value: 'public', label: 'Public', hint: 'Everyone can find it and see it.' },
  { value: 'followers', label: 'Followers', hint: 'Only the members who follow you.' },
  { value: 'private', label: 'Private', hint: 'Only you.' },
];

/** The one audience the setting names, or null when it names none (or, wrongly, several). */
export function audienceOf(setting: ContentSetting): Audience | null {
  const chosen = AUDIENCES.filter(({ value }) => setting[value]);
  return chosen.length === 1 ? chosen[0]!.value : null;
}

/** The setting with `audience` chosen and the other two cleared. */
export const withAudience = (setting: ContentSetting, audience: Audience): ContentSetting => ({
  ...setting,
  public: audience === 'public',
  followers: audience === 'followers',
  private: audience === 'private',
});

/** The flag that hides the piece's count: its plays for a song, its views for art and photos. */
export const countFlagOf = (content: Pick<Content, 'type'>) => (content.type === 'music' ? 'hidePlayCount' : 'hideViewCount');

/**
 * Whether the member may change who sees their pieces, as the server decides it (spec §6): admins always; others with
 * a current subscription to a plan above the first (lowest) of the plans.
 */
export function mayChoosePrivacy(isAdmin: boolean, subscription: Subscription | null, plans: Plan[]): boolean {
  if (isAdmin) return true;
  const first = Math.min(...plans.map((plan) => plan.planId));
  return Boolean(subscription && subscription.status === 'active' && plans.length && subscription.planId > first);
}
