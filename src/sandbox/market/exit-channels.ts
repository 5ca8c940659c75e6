import { EXIT_CHANNEL_KINDS, SEGMENT_IDS, type ExitChannel, type SegmentId } from '../../wire';
import { parseTextTable, type TextTableRow } from '../../text-table';

/**
 * Where each segment's assets are sold, with typical seller costs: auction houses' seller
 * commission, dealers' margin on a buy-out, marketplaces' seller fee, agents' fee. Days: how
 * long a sale typically takes. A channel serving several segments lists them all.
 */
const CHANNELS = `
  id                     | kind         | commission % | days   | segments       | name
  phillips_watches       | auction      | 12           | 60-120 | watches        | Phillips Watches auction
  christies_watches      | auction      | 12.5         | 60-120 | watches        | Christie's Watches auction
  chrono24               | marketplace  | 6.5          | 14-45  | watches        | Chrono24 marketplace
  watch_dealer_buyout    | dealer       | 17           | 3-10   | watches        | Specialist watch dealer buy-out
  watch_private_broker   | private_sale | 8            | 30-90  | watches        | Private watch broker

  sothebys_contemporary  | auction      | 12           | 90-180 | art            | Sotheby's Contemporary Art auction
  christies_postwar      | auction      | 12           | 90-180 | art            | Christie's Post-War & Contemporary auction
  art_private_treaty     | private_sale | 8            | 45-120 | art            | Private treaty sale through an auction house
  gallery_consignment    | consignment  | 25           | 60-180 | art            | Gallery consignment
  artsy_marketplace      | marketplace  | 10           | 30-90  | art            | Artsy online marketplace

  livex_merchant         | marketplace  | 6            | 7-21   | wine           | Liv-ex trading through a merchant
  bbx                    | marketplace  | 10           | 14-60  | wine           | Berry Bros. & Rudd BBX
  sothebys_wine          | auction      | 12           | 45-90  | wine spirits   | Sotheby's Wine auction
  acker_wine             | auction      | 12           | 45-90  | wine           | Acker Wines auction
  wine_merchant_buyout   | dealer       | 15           | 3-10   | wine           | Fine-wine merchant buy-out

  stockx                 | marketplace  | 9            | 3-14   | sneakers       | StockX marketplace
  goat                   | marketplace  | 9.5          | 5-21   | sneakers       | GOAT marketplace
  sneaker_consignment    | consignment  | 20           | 14-60  | sneakers       | Sneaker consignment store
  sneaker_dealer_buyout  | dealer       | 25           | 1-3    | sneakers       | Sneaker reseller buy-out

  christies_handbags     | auction      | 12           | 60-120 | bags           | Christie's Handbags & Accessories auction
  sothebys_handbags      | auction      | 12           | 60-120 | bags           | Sotheby's Handbags auction
  therealreal            | consignment  | 30           | 30-90  | bags jewellery | The RealReal consignment
  bag_dealer_buyout      | dealer       | 20           | 2-7    | bags           | Pre-owned handbag dealer buy-out
  vestiaire              | marketplace  | 10           | 14-60  | bags           | Vestiaire Collective marketplace

  goldin                 | auction      | 10           | 30-60  | cards          | Goldin auction
  heritage_cards         | auction      | 12           | 45-90  | cards          | Heritage Auctions sports & TCG
  fanatics_collect       | marketplace  | 6            | 7-30   | cards          | Fanatics Collect marketplace
  ebay_cards             | marketplace  | 13           | 7-21   | cards sneakers | eBay
  card_dealer_buyout     | dealer       | 20           | 1-5    | cards          | Card shop buy-out

  christies_jewels       | auction      | 12           | 60-150 | jewellery      | Christie's Magnificent Jewels auction
  sothebys_jewels        | auction      | 12           | 60-150 | jewellery      | Sotheby's Magnificent Jewels auction
  jeweller_buyout        | dealer       | 20           | 3-14   | jewellery      | Fine jeweller buy-out
  firstdibs              | marketplace  | 15           | 30-90  | jewellery      | 1stDibs marketplace

  rm_sothebys            | auction      | 10           | 60-150 | automobiles    | RM Sotheby's auction
  gooding                | auction      | 10           | 60-150 | automobiles    | Gooding Christie’s auction
  bring_a_trailer        | marketplace  | 5            | 21-45  | automobiles    | Bring a Trailer online auction
  classic_car_dealer     | dealer       | 15           | 7-21   | automobiles    | Classic car dealer purchase
  car_private_broker     | private_sale | 7            | 30-120 | automobiles    | Private classic car broker

  whisky_auctioneer      | auction      | 10           | 30-60  | spirits        | Whisky Auctioneer
  scotch_whisky_auctions | auction      | 10           | 30-60  | spirits        | Scotch Whisky Auctions
  spirits_dealer_buyout  | dealer       | 18           | 3-10   | spirits        | Rare spirits dealer buy-out

  prime_agent            | private_sale | 2.5          | 90-240 | real_estate    | Prime residential agent (sole agency)
  luxury_network_agent   | private_sale | 5            | 90-270 | real_estate    | International luxury property network
  off_market_broker      | private_sale | 2            | 60-180 | real_estate    | Off-market buying agent
  property_auction       | auction      | 4            | 45-90  | real_estate    | Luxury property auction
`;

function channel(row: TextTableRow): ExitChannel {
  return {
    id: row.text('id'),
    name: row.text('name'),
    kind: row.oneOf('kind', EXIT_CHANNEL_KINDS),
    segments: row.eachOf('segments', SEGMENT_IDS),
    commission_percent: row.number('commission %'),
    timeline_days: row.text('days'),
  };
}

export const EXIT_CHANNELS: readonly ExitChannel[] = parseTextTable(CHANNELS).map(channel);

export function channelsFor(segment: SegmentId | undefined): ExitChannel[] {
  return EXIT_CHANNELS.filter((c) => segment === undefined || c.segments.includes(segment));
}

/** "60-120" -> [60, 120]. */
export function dayRange(text: string): [number, number] {
  const [a, b] = text.split('-').map(Number);
  return [a!, b ?? a!];
}
