/**
 * The content pages Knack ships with, as Markdown an admin can change in the admin area. The facts are the
 * product's own rules: keep them true when a rule changes (the split, the fees, the payout day and minimum).
 */
import type { CmsPageDoc } from './cms.model';

type SeedPage = Pick<CmsPageDoc, '_id' | 'title' | 'description' | 'sections'>;

const lines = (...text: string[]) => text.join('\n');

const BECOME: SeedPage = {
  _id: 'become',
  title: 'How Knack works',
  description: 'Listeners, creators and supporters: what each does on Knack, and how every play and view pays the people who made it.',
  sections: [
    {
      key: 'listeners',
      title: 'For listeners and viewers',
      body: lines(
        'Knack is free to explore. Browse **Music**, **Art** and **Photos** on the home page and in [Explore](/explore), search for titles, artists and tags, and open any piece to see it full size or play it in the player bar.',
        '',
        '## Your plays pay the artist',
        'Sign up and sign in, and every piece you enjoy pays the people who made it:',
        '',
        '- a **song** counts once you have heard more than half of it;',
        '- an **image** counts when you open it.',
        '',
        'That count is a *knack*. It costs you nothing: Knack pays it to the creator of a listed piece. Each piece counts once for you, and after nine knacks in a day we ask for a code from your email, so that knacks come from people, not scripts.',
        '',
        '## Follow, comment and keep a collection',
        'Follow the artists you like to see their new work first, comment on pieces, share them anywhere with a link or an embedded player, and flag a piece that breaks the rules. Visitors can listen for 30 seconds before we ask them to join.',
      ),
    },
    {
      key: 'creators',
      title: 'For creators',
      body: lines(
        'Upload your songs, art and photos under Music, Art or Photos, and choose the sub-tag that fits (Jazz, Digital Art, Travel, …). Your profile shows everything you publish, and you decide who sees each piece: everyone, your followers or only you.',
        '',
        '## List a piece to earn',
        'To earn from a piece, list it once with a small **listing fee**: $0.65 for most pieces, $12.40 for premium tags whose knack is worth $0.99 (Digital Art and Music 2). A plan credit or a discount code can pay it for you.',
        '',
        'From then on, every play or view by another signed-in member earns the piece its **knack value** (from $0.05, set by its tag). When you listed the piece yourself, all of it is yours; when a supporter listed it, you get **90%** and they get 10%.',
        '',
        '## Get paid',
        'Your wallet shows every knack as it happens. Balances of **$10 or more** are paid to your PayPal account on the **1st of every month**, or when you ask to cash out and an admin approves it. The payout provider keeps a small fee (2%, at most $1.00).',
        '',
        'Read [how earnings work](/earning/normal) for a worked example.',
      ),
    },
    {
      key: 'supporters',
      title: 'For supporters',
      body: lines(
        'Love a piece that is not listed yet? **Support it**: pay its listing fee yourself, and share in what it earns.',
        '',
        '- the piece starts earning for its creator at once;',
        '- you receive **10%** of every knack it earns, for as long as it earns;',
        '- the piece joins your **Collection**, with its value shown in your wallet.',
        '',
        'A piece is listed once: if someone else listed it a moment before you, your payment is refunded in full.',
        '',
        'Supporting is how fans back the artists they believe in early, and are rewarded when the rest of the world catches up.',
      ),
    },
  ],
};

const EARNING: SeedPage = {
  _id: 'earning',
  title: 'Earn with Knack',
  description: 'How knack earnings, the 90/10 split, listing fees, cash-outs and the monthly payouts work, with a worked example.',
  sections: [
    {
      key: 'normal',
      title: 'How earnings work',
      body: lines(
        '## A knack',
        'A knack is one play of a song (more than half of it heard) or one view of an image, by a signed-in member who is not the piece’s owner, on a listed piece. Each member counts once per piece.',
        '',
        '## What a knack is worth',
        'Each sub-tag has a price, and a knack is worth 8% of it: $0.05 for most tags, $0.99 for Digital Art and Music 2. The value is fixed when the knack happens and recorded in Knack’s ledger; a later price change never rewrites it.',
        '',
        '## Who gets it',
        '| Who listed the piece | Creator | Supporter |',
        '| --- | --- | --- |',
        '| The creator | 100% | — |',
        '| A supporter | 90% | 10% |',
        '',
        '## Listing fees',
        'A piece earns once it is listed: $0.65, or $12.40 for a premium tag. Plans include credits that pay listing fees, and discount codes can cover them.',
        '',
        '## A worked example',
        'Mia uploads a jazz song, and her fan Leo lists it for $0.65. In a month, 200 signed-in members play more than half of it. Each play is a knack worth $0.05:',
        '',
        '- the song earns 200 × $0.05 = **$10.00**;',
        '- Mia receives 90%: **$9.00**; Leo receives 10%: **$1.00**.',
        '',
        'Had Mia listed the song herself, all $10.00 would be hers.',
        '',
        '## Getting paid',
        'On the 1st of each month, every balance of **$10.00 or more** is paid to the member’s PayPal account, less the payout provider’s fee (2%, at most $1.00). You can also ask to cash out from your wallet at any time once you have $10.00; an admin approves it, and you can cancel the request while it waits. Your wallet and history list every knack, fee and payout, and each day’s ledger can be checked on the [proof page](/verify).',
      ),
    },
    {
      key: 'faq',
      title: 'Questions and answers',
      body: lines(
        '### Does it cost anything to listen or look?',
        'No. Exploring, playing and viewing are free. Knacks are paid by Knack to the creators and supporters of listed pieces.',
        '',
        '### Why must I be signed in for a play to count?',
        'A knack is money. Counting only signed-in members, once per piece, keeps the counts honest.',
        '',
        '### When does a song count?',
        'Once you have heard more than half of it. An image counts when you open it.',
        '',
        '### How much is a knack worth?',
        '8% of its tag’s price: $0.05 for most tags, $0.99 for Digital Art and Music 2.',
        '',
        '### What is a supporter?',
        'Someone who pays the listing fee of another member’s piece. They receive 10% of what the piece earns; the creator keeps 90%.',
        '',
        '### When am I paid?',
        'On the 1st of each month, when your balance is $10.00 or more, to the PayPal email in your payment settings. You can also ask to cash out from your wallet.',
        '',
        '### What does a payout cost?',
        'The payout provider keeps 2% of it, at most $1.00. Everything else reaches you.',
        '',
        '### Can I cancel a cash-out request?',
        'Yes, while it waits for approval. Your balance is then paid with the next monthly payout.',
        '',
        '### What happens when a piece is flagged?',
        'Members can flag a piece that breaks the rules. After five flags it is held off the lists until an admin reviews it; the admin either restores it or takes it down and tells its owner why.',
        '',
        '### How do plans help?',
        'A plan gives you listing credits every month, and on a listed plan you see earnings analytics. See [Pricing](/pricing).',
      ),
    },
  ],
};

const USER_GUIDE: SeedPage = {
  _id: 'user-guide',
  title: 'User Guide',
  description: 'Find your way around Knack: the title box, the showcase, the menu and the rules of the community.',
  sections: [
    {
      key: 'introduction',
      title: 'Introduction',
      body: lines(
        'Welcome to Knack, where creators of music, art and photos are paid for every play and view.',
        '',
        'This guide walks through the screens you use every day: the **title box** at the top of each page, the **showcase** of pieces, and the **menu**, and ends with the **rules** every member agrees to.',
        '',
        'New here? Start with [How Knack works](/become/all), then [how earnings work](/earning/normal).',
      ),
    },
    {
      key: 'title-box',
      title: 'The title box',
      body: lines(
        'The bar at the top of every page holds:',
        '',
        '- the **Knack logo**, which takes you home;',
        '- the **search box**: type a title, an artist or a tag and press Enter; suggestions appear as you type;',
        '- **Explore**, **Collection** and **My Profile**, and the **inbox** with its count of unread messages;',
        '- **Upload**, to publish a song, a picture or a photo;',
        '- your **avatar**, which opens your profile summary: your earnings, your projects and your wallets.',
      ),
    },
    {
      key: 'showcase',
      title: 'The showcase',
      body: lines(
        'Pieces show as cards in rows and grids: the home page’s featured pieces, Explore’s **Popular**, **Featured**, **Trending** and **New** tabs, each tag’s page and each artist’s profile.',
        '',
        '- Click a card to open the piece: the full image or the song’s waveform, its description, comments and share buttons.',
        '- **Play** starts a song in the player bar at the bottom, which keeps playing as you move around.',
        '- A listed piece shows its knack value; yours also show their plays or views unless you hide the count.',
        '- From the piece’s menu, the owner changes who may see it, adds it to a project or lists it.',
      ),
    },
    {
      key: 'nav-menu',
      title: 'The menu',
      body: lines(
        'The side menu (the ☰ button on a phone) leads everywhere else:',
        '',
        '- **Wallet**: your balance, what you earned by piece, cash-outs and payouts;',
        '- **Inbox**: messages with other members and with Knack support;',
        '- **Analytics**, on a listed plan: how your tags and pieces earn;',
        '- **Your Information**: settings (profile, password, privacy, payments) and your activity history;',
        '- **Collection**: the pieces you supported;',
        '- **Pricing**, **Explore**, **FAQ & Support** and this **User Guide**.',
      ),
    },
    {
      key: 'rules',
      title: 'The rules',
      body: lines(
        'Knack works because every knack is real and every piece belongs to the person who published it.',
        '',
        '1. **Publish only your own work**, or work you have the right to publish.',
        '2. **One person, one account.** Plays from scripts, farms or shared accounts are not knacks, and the code we email after nine knacks a day keeps them out.',
        '3. **Tag honestly.** Put each piece under the tag that fits it.',
        '4. **Be kind** in comments and messages. No harassment, hate or spam.',
        '5. **Flag what breaks these rules.** Five flags hold a piece off the lists until an admin reviews it.',
        '',
        'An admin may take a piece down or deactivate an account that breaks the rules. The full terms are in the [Terms of Use](/terms-of-use.html).',
      ),
    },
  ],
};

export const CMS_PAGES: SeedPage[] = [BECOME, EARNING, USER_GUIDE];
