import CommentOutlined from '@ant-design/icons/es/icons/CommentOutlined';
import EyeInvisibleOutlined from '@ant-design/icons/es/icons/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons/es/icons/EyeOutlined';
import PlayCircleOutlined from '@ant-design/icons/es/icons/PlayCircleOutlined';
import { compactCount } from '../../../components/format';
import { MonetizedIcon } from '../../../components/MonetizedIcon';
import { MonetizeButton } from '../../payments';
import { formatKnackPricePer } from '../../../lib/formatKnackPrice';
import { typeStyle } from '../../../lib/tagColors';
import { TypeIcon } from '../../../components/tags/TypeIcon';
import { HIDDEN_FROM_OTHERS, shownCount, type Content } from '../../../lib/content';
import { shortHash, transactionExplorerUrl } from '../../../lib/stellarExplorer';
import { typeByFirstTag } from '../contentFacts';
import { ShareLink } from './ShareLink';

export interface DetailInfoProps {
  content: Content;
  titleId: string;
  /** From the detail call, once it answers. */
  commentsCount?: number;
}

/** A piece minted as a Stellar NFT: its asset, its issuer, the pinned file and the transaction that minted it. */
function NftFacts({ nft }: { nft: NonNullable<Content['nft']> }) {
  const explorer = transactionExplorerUrl(nft.network, nft.transactionHash);
  return (
    <section className="kn-detail__nft" aria-label="NFT">
      <h3 className="kn-detail__nft-title">NFT</h3>
      <dl>
        <div>
          <dt>Asset</dt>
          <dd>{nft.tokenCode}</dd>
        </div>
        <div>
          <dt>Issuer</dt>
          <dd title={nft.tokenIssuer}>{nft.tokenIssuerShort}</dd>
        </div>
        <div>
          <dt>IPFS</dt>
          <dd>
            <a href={nft.ipfsUrl} target="_blank" rel="noreferrer" title={nft.ipfsHash}>
              {nft.ipfsHashShort}
            </a>
          </dd>
        </div>
        <div>
          <dt>Transaction</dt>
          <dd>
            {explorer ? (
              <a href={explorer} target="_blank" rel="noreferrer" title={nft.transactionHash}>
                {shortHash(nft.transactionHash)}
              </a>
            ) : (
              <span title={nft.transactionHash}>{shortHash(nft.transactionHash)}</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * What a piece is: its type icon by first tag, tag and sub-tag, title,
 * description, whether it is monetized, the knack price, plays or views, comments, its NFT when it was minted as one,
 * and the share link.
 */
export function DetailInfo({ content, titleId, commentsCount }: DetailInfoProps) {
  const type = typeByFirstTag(content);
  const reactions = shownCount(content);
  return (
    <section className="kn-detail__info" style={typeStyle(type)} aria-labelledby={titleId}>
      <div className="kn-detail__tags">
        <span className="kn-type-pill kn-detail__chip kn-detail__chip--main">
          <TypeIcon type={type} /> {content.tags[0]?.name ?? type}
        </span>
        {content.subTag ? <span className="kn-type-pill kn-detail__chip">{content.subTag}</span> : null}
      </div>
      <h2 id={titleId} className="kn-detail__title">
        {content.title}
      </h2>
      <div className="kn-detail__price">
        <MonetizedIcon paidOut={content.isPaidOut} className="kn-detail__money" />
        <strong className="kn-type-pill" title="Knack price">
          {formatKnackPricePer(content.knackRate, content.type)}
        </strong>
        <MonetizeButton contentId={content.id} ownerId={content.ownerId} isPaidOut={content.isPaidOut} />
      </div>
      <ul className="kn-detail__stats" aria-label="Activity">
        {reactions ? (
          <li>
            {reactions.unit === 'plays' ? <PlayCircleOutlined aria-hidden /> : <EyeOutlined aria-hidden />} {compactCount(reactions.count)}{' '}
            {reactions.count === 1 ? reactions.unit.slice(0, -1) : reactions.unit}
            {reactions.hiddenFromOthers ? (
              <span className="kn-detail__hidden-count">
                <EyeInvisibleOutlined aria-hidden /> {HIDDEN_FROM_OTHERS}
              </span>
            ) : null}
          </li>
        ) : null}
        {commentsCount !== undefined ? (
          <li>
            <CommentOutlined aria-hidden /> {compactCount(commentsCount)} {commentsCount === 1 ? 'comment' : 'comments'}
          </li>
        ) : null}
      </ul>
      {content.description ? <p className="kn-detail__description">{content.description}</p> : null}
      {content.nft ? <NftFacts nft={content.nft} /> : null}
      <ShareLink link={content.link} contentId={content.id} />
    </section>
  );
}
