import { ISSUER_STARTING_XLM } from '../nft.rules';

/** Knack's NFT mode beside the NFT marketplaces, point by point. */
const POINTS: { title: string; knack: string; marketplaces: string }[] = [
  { title: 'Sales', knack: 'No percentage taken on NFT sales.', marketplaces: 'Usually a percentage of each sale.' },
  {
    title: 'Wallet',
    knack: 'A non-custodial wallet: the token goes to your own Stellar wallet, and only you hold its key.',
    marketplaces: 'Often a wallet the marketplace keeps for you.',
  },
  {
    title: 'The file',
    knack: 'Pinned to IPFS: its address (CID) is written on the token, so anyone can check the file.',
    marketplaces: 'Often a link to the marketplace’s own server.',
  },
  {
    title: 'Supply',
    knack: 'Fixed for ever: the issuer is locked in the same transaction, so no more can be made.',
    marketplaces: 'Depends on the contract; some can mint more later.',
  },
  {
    title: 'Signing',
    knack: `Your own wallet signs (Freighter); it pays the network fee and ${ISSUER_STARTING_XLM} XLM to open the token's issuer.`,
    marketplaces: 'Often signed for you by the platform.',
  },
];

/** What NFT mode is and how it compares: the visitors' page and the members' NFT sidebar show the same copy. */
export function NftComparison({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="kn-nft-compare" aria-labelledby="kn-nft-compare-title">
      <Heading id="kn-nft-compare-title" className="kn-nft-compare__title">
        Knack compared with NFT marketplaces
      </Heading>
      <dl className="kn-nft-compare__list">
        {POINTS.map((point) => (
          <div key={point.title} className="kn-nft-compare__row">
            <dt>{point.title}</dt>
            <dd>
              <span className="kn-nft-compare__knack">{point.knack}</span>
              <span className="kn-nft-compare__them">Marketplaces: {point.marketplaces}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** One paragraph on what NFT mode does. */
export function NftWhat() {
  return (
    <p className="kn-nft-what">
      NFT mode publishes a piece on Knack and issues it as a token on the Stellar network: a token made for this piece alone, held in your own wallet, with the
      file pinned to IPFS.
    </p>
  );
}
