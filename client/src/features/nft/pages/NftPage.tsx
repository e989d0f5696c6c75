import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Segmented from 'antd/es/segmented';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import { PageHead } from '../../../components/PageHead';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { selectIsLoggedIn } from '../../auth';
import { NftComparison, NftWhat } from '../components/NftComparison';
import { NftMintForm } from '../components/NftMintForm';
import { NftSidebar } from '../components/NftSidebar';
import { selectNft } from '../nft.selectors';
import { nftFormOpened } from '../nft.slice';
import '../components/nft.css';

type SaveMode = 'Classic' | 'NFT';

/** For visitors: what NFT mode is, how it compares, and the way in. */
function NftIntro() {
  const dispatch = useAppDispatch();
  return (
    <div className="kn-nft kn-nft--intro">
      <PageHead icon={<SafetyCertificateOutlined aria-hidden />} title="NFT mode" sub="Publish a piece on Knack as a token on the Stellar network." />
      <NftWhat />
      <NftComparison />
      <div className="kn-nft-intro__cta">
        <Button type="primary" size="large" onClick={() => dispatch(modalOpened({ name: 'login', origin: 'onClickKnack' }))}>
          Log in to mint a piece
        </Button>
        <Button size="large" onClick={() => dispatch(modalOpened({ name: 'signup', origin: 'onClickKnack' }))}>
          Join for free
        </Button>
      </div>
    </div>
  );
}

/** For members: the save mode, the four steps, and the NFT sidebar (below the form on phones). */
function NftWorkspace() {
  const dispatch = useAppDispatch();
  const { session } = useAppSelector(selectNft);
  const [opened, setOpened] = useState(false);
  // The form starts fresh each time the page opens (and not before: the last visit's form is not shown meanwhile).
  useEffect(() => {
    dispatch(nftFormOpened());
    setOpened(true);
  }, [dispatch]);
  const switchMode = (mode: SaveMode) => {
    if (mode === 'NFT') return;
    // Classic is the upload modal; NFT mode starts again at step 1.
    dispatch(nftFormOpened());
    dispatch(modalOpened({ name: 'upload' }));
  };
  return (
    <div className="kn-nft">
      <div className="kn-nft__main">
        <PageHead icon={<SafetyCertificateOutlined aria-hidden />} title="NFT mode" sub="Publish a piece as a Stellar token, its file pinned to IPFS." />
        <div className="kn-nft__mode">
          <span className="kn-nft__mode-label" id="kn-nft-mode-label">
            Save mode
          </span>
          <Segmented<SaveMode> options={['Classic', 'NFT']} value="NFT" onChange={switchMode} aria-labelledby="kn-nft-mode-label" />
        </div>
        {opened ? <NftMintForm key={session} /> : null}
      </div>
      <NftSidebar />
    </div>
  );
}

/** `/nft`: NFT mode for a signed-in member, with the NFT sidebar; for a visitor, what it is and how it compares. */
export default function NftPage() {
  const loggedIn = useAppSelector(selectIsLoggedIn);
  return loggedIn ? <NftWorkspace /> : <NftIntro />;
}
