import type { ExitChannel, SegmentId } from '../../wire';

/**
 * Where each segment's assets are sold, with typical seller costs: auction houses' seller
 * commission, dealers' margin on a buy-out, marketplaces' seller fee, agents' fee.
 */
export const EXIT_CHANNELS: readonly ExitChannel[] = [
  // Watches
  { id: 'phillips_watches', name: 'Phillips Watches auction', kind: 'auction', segments: ['watches'], commission_percent: 12, timeline_days: '60-120' },
  { id: 'christies_watches', name: "Christie's Watches auction", kind: 'auction', segments: ['watches'], commission_percent: 12.5, timeline_days: '60-120' },
  { id: 'chrono24', name: 'Chrono24 marketplace', kind: 'marketplace', segments: ['watches'], commission_percent: 6.5, timeline_days: '14-45' },
  { id: 'watch_dealer_buyout', name: 'Specialist watch dealer buy-out', kind: 'dealer', segments: ['watches'], commission_percent: 17, timeline_days: '3-10' },
  { id: 'watch_private_broker', name: 'Private watch broker', kind: 'private_sale', segments: ['watches'], commission_percent: 8, timeline_days: '30-90' },
  // Art
  { id: 'sothebys_contemporary', name: "Sotheby's Contemporary Art auction", kind: 'auction', segments: ['art'], commission_percent: 12, timeline_days: '90-180' },
  { id: 'christies_postwar', name: "Christie's Post-War & Contemporary auction", kind: 'auction', segments: ['art'], commission_percent: 12, timeline_days: '90-180' },
  { id: 'art_private_treaty', name: 'Private treaty sale through an auction house', kind: 'private_sale', segments: ['art'], commission_percent: 8, timeline_days: '45-120' },
  { id: 'gallery_consignment', name: 'Gallery consignment', kind: 'consignment', segments: ['art'], commission_percent: 25, timeline_days: '60-180' },
  { id: 'artsy_marketplace', name: 'Artsy online marketplace', kind: 'marketplace', segments: ['art'], commission_percent: 10, timeline_days: '30-90' },
  // Wine
  { id: 'livex_merchant', name: 'Liv-ex trading through a merchant', kind: 'marketplace', segments: ['wine'], commission_percent: 6, timeline_days: '7-21' },
  { id: 'bbx', name: 'Berry Bros. & Rudd BBX', kind: 'marketplace', segments: ['wine'], commission_percent: 10, timeline_days: '14-60' },
  { id: 'sothebys_wine', name: "Sotheby's Wine auction", kind: 'auction', segments: ['wine', 'spirits'], commission_percent: 12, timeline_days: '45-90' },
  { id: 'acker_wine', name: 'Acker Wines auction', kind: 'auction', segments: ['wine'], commission_percent: 12, timeline_days: '45-90' },
  { id: 'wine_merchant_buyout', name: 'Fine-wine merchant buy-out', kind: 'dealer', segments: ['wine'], commission_percent: 15, timeline_days: '3-10' },
  // Sneakers
  { id: 'stockx', name: 'StockX marketplace', kind: 'marketplace', segments: ['sneakers'], commission_percent: 9, timeline_days: '3-14' },
  { id: 'goat', name: 'GOAT marketplace', kind: 'marketplace', segments: ['sneakers'], commission_percent: 9.5, timeline_days: '5-21' },
  { id: 'sneaker_consignment', name: 'Sneaker consignment store', kind: 'consignment', segments: ['sneakers'], commission_percent: 20, timeline_days: '14-60' },
  { id: 'sneaker_dealer_buyout', name: 'Sneaker reseller buy-out', kind: 'dealer', segments: ['sneakers'], commission_percent: 25, timeline_days: '1-3' },
  // Handbags
  { id: 'christies_handbags', name: "Christie's Handbags & Accessories auction", kind: 'auction', segments: ['bags'], commission_percent: 12, timeline_days: '60-120' },
  { id: 'sothebys_handbags', name: "Sotheby's Handbags auction", kind: 'auction', segments: ['bags'], commission_percent: 12, timeline_days: '60-120' },
  { id: 'therealreal', name: 'The RealReal consignment', kind: 'consignment', segments: ['bags', 'jewellery'], commission_percent: 30, timeline_days: '30-90' },
  { id: 'bag_dealer_buyout', name: 'Pre-owned handbag dealer buy-out', kind: 'dealer', segments: ['bags'], commission_percent: 20, timeline_days: '2-7' },
  { id: 'vestiaire', name: 'Vestiaire Collective marketplace', kind: 'marketplace', segments: ['bags'], commission_percent: 10, timeline_days: '14-60' },
  // Cards
  { id: 'goldin', name: 'Goldin auction', kind: 'auction', segments: ['cards'], commission_percent: 10, timeline_days: '30-60' },
  { id: 'heritage_cards', name: 'Heritage Auctions sports & TCG', kind: 'auction', segments: ['cards'], commission_percent: 12, timeline_days: '45-90' },
  { id: 'fanatics_collect', name: 'Fanatics Collect marketplace', kind: 'marketplace', segments: ['cards'], commission_percent: 6, timeline_days: '7-30' },
  { id: 'ebay_cards', name: 'eBay', kind: 'marketplace', segments: ['cards', 'sneakers'], commission_percent: 13, timeline_days: '7-21' },
  { id: 'card_dealer_buyout', name: 'Card shop buy-out', kind: 'dealer', segments: ['cards'], commission_percent: 20, timeline_days: '1-5' },
  // Jewellery
  { id: 'christies_jewels', name: "Christie's Magnificent Jewels auction", kind: 'auction', segments: ['jewellery'], commission_percent: 12, timeline_days: '60-150' },
  { id: 'sothebys_jewels', name: "Sotheby's Magnificent Jewels auction", kind: 'auction', segments: ['jewellery'], commission_percent: 12, timeline_days: '60-150' },
  { id: 'jeweller_buyout', name: 'Fine jeweller buy-out', kind: 'dealer', segments: ['jewellery'], commission_percent: 20, timeline_days: '3-14' },
  { id: 'firstdibs', name: '1stDibs marketplace', kind: 'marketplace', segments: ['jewellery'], commission_percent: 15, timeline_days: '30-90' },
  // Automobiles
  { id: 'rm_sothebys', name: "RM Sotheby's auction", kind: 'auction', segments: ['automobiles'], commission_percent: 10, timeline_days: '60-150' },
  { id: 'gooding', name: 'Gooding Christie’s auction', kind: 'auction', segments: ['automobiles'], commission_percent: 10, timeline_days: '60-150' },
  { id: 'bring_a_trailer', name: 'Bring a Trailer online auction', kind: 'marketplace', segments: ['automobiles'], commission_percent: 5, timeline_days: '21-45' },
  { id: 'classic_car_dealer', name: 'Classic car dealer purchase', kind: 'dealer', segments: ['automobiles'], commission_percent: 15, timeline_days: '7-21' },
  { id: 'car_private_broker', name: 'Private classic car broker', kind: 'private_sale', segments: ['automobiles'], commission_percent: 7, timeline_days: '30-120' },
  // Spirits
  { id: 'whisky_auctioneer', name: 'Whisky Auctioneer', kind: 'auction', segments: ['spirits'], commission_percent: 10, timeline_days: '30-60' },
  { id: 'scotch_whisky_auctions', name: 'Scotch Whisky Auctions', kind: 'auction', segments: ['spirits'], commission_percent: 10, timeline_days: '30-60' },
  { id: 'spirits_dealer_buyout', name: 'Rare spirits dealer buy-out', kind: 'dealer', segments: ['spirits'], commission_percent: 18, timeline_days: '3-10' },
  // Real estate
  { id: 'prime_agent', name: 'Prime residential agent (sole agency)', kind: 'private_sale', segments: ['real_estate'], commission_percent: 2.5, timeline_days: '90-240' },
  { id: 'luxury_network_agent', name: 'International luxury property network', kind: 'private_sale', segments: ['real_estate'], commission_percent: 5, timeline_days: '90-270' },
  { id: 'off_market_broker', name: 'Off-market buying agent', kind: 'private_sale', segments: ['real_estate'], commission_percent: 2, timeline_days: '60-180' },
  { id: 'property_auction', name: 'Luxury property auction', kind: 'auction', segments: ['real_estate'], commission_percent: 4, timeline_days: '45-90' },
];

export function channelsFor(segment: SegmentId | undefined): ExitChannel[] {
  return EXIT_CHANNELS.filter((c) => segment === undefined || c.segments.includes(segment));
}

/** "60-120" -> [60, 120]. */
export function dayRange(text: string): [number, number] {
  const [a, b] = text.split('-').map(Number);
  return [a!, b ?? a!];
}
