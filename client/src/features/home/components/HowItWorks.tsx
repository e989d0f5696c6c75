import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import PlayCircleOutlined from '@ant-design/icons/es/icons/PlayCircleOutlined';
import WalletOutlined from '@ant-design/icons/es/icons/WalletOutlined';

const STEPS = [
  {
    icon: <CloudUploadOutlined />,
    title: 'Upload and list',
    text: 'Share a track, an artwork or a photo under Music, Art or Photos. A listing fee from $0.65 turns on earning.',
  },
  {
    icon: <PlayCircleOutlined />,
    title: 'Get played and viewed',
    text: 'Every play or view by a member earns a knack. Supporters who back your work share 10% of what it earns.',
  },
  {
    icon: <WalletOutlined />,
    title: 'Cash out monthly',
    text: 'Payouts go out on the 1st of each month once you reach $10. No percentage taken on NFT sales.',
  },
];

/** Three steps from upload to payout (marketing copy). */
export function HowItWorks() {
  return (
    <section className="kn-how" aria-labelledby="kn-how-title">
      <h2 id="kn-how-title" className="kn-home__heading">
        How Knack works
      </h2>
      <ol className="kn-how__steps">
        {STEPS.map((step, index) => (
          <li key={step.title} className="kn-how__step">
            <span className="kn-how__icon">{step.icon}</span>
            <span className="kn-how__number">0{index + 1}</span>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
