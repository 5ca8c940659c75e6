/**
 * Real-world assets the example portfolios are drawn from, with a typical unit price (USD,
 * secondary market, 2024-2026; wine per case of 12) and the year range they were made in. Used only by
 * examples/generate.ts; the example files themselves are committed.
 */
export interface CatalogueItem {
  segment: string;
  brand: string;
  model: string;
  reference?: string;
  years?: [number, number];
  price: number;
  /** Units a typical holding has (wine cases, spirits bottles). */
  units?: number[];
  sizes?: string[];
  medium?: string;
  sizeCm?: [number, number];
  /** One of a kind (a property, a one-off artwork, a car by its chassis): held at most once across all the example portfolios. */
  unique?: boolean;
}

export const CATALOGUE: CatalogueItem[] = [
  // Watches
  { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', years: [2020, 2024], price: 14_500 },
  { segment: 'watches', brand: 'Rolex', model: 'Cosmograph Daytona', reference: '116500LN', years: [2016, 2022], price: 29_000 },
  { segment: 'watches', brand: 'Rolex', model: 'GMT-Master II Pepsi', reference: '126710BLRO', years: [2018, 2024], price: 21_500 },
  { segment: 'watches', brand: 'Rolex', model: 'Datejust 41', reference: '126334', years: [2017, 2024], price: 12_000 },
  { segment: 'watches', brand: 'Rolex', model: 'Explorer II', reference: '226570', years: [2021, 2024], price: 10_500 },
  { segment: 'watches', brand: 'Patek Philippe', model: 'Nautilus', reference: '5711/1A-010', years: [2010, 2021], price: 115_000 },
  { segment: 'watches', brand: 'Patek Philippe', model: 'Aquanaut', reference: '5167A-001', years: [2008, 2023], price: 62_000 },
  { segment: 'watches', brand: 'Patek Philippe', model: 'Calatrava', reference: '5227G-010', years: [2013, 2023], price: 34_000 },
  { segment: 'watches', brand: 'Audemars Piguet', model: 'Royal Oak Selfwinding', reference: '15500ST.OO.1220ST.01', years: [2019, 2023], price: 41_000 },
  { segment: 'watches', brand: 'Audemars Piguet', model: 'Royal Oak Jumbo Extra-Thin', reference: '15202ST.OO.1240ST.01', years: [2012, 2021], price: 105_000 },
  { segment: 'watches', brand: 'Omega', model: 'Speedmaster Moonwatch Professional', reference: '310.30.42.50.01.001', years: [2021, 2025], price: 6_900 },
  { segment: 'watches', brand: 'Cartier', model: 'Santos de Cartier Large', reference: 'WSSA0018', years: [2018, 2025], price: 7_200 },
  { segment: 'watches', brand: 'Vacheron Constantin', model: 'Overseas Self-Winding', reference: '4500V/110A-B128', years: [2016, 2024], price: 33_000 },
  { segment: 'watches', brand: 'Richard Mille', model: 'RM 011 Felipe Massa', reference: 'RM011', years: [2012, 2020], price: 185_000 },
  { segment: 'watches', brand: 'F.P. Journe', model: 'Chronomètre Bleu', reference: 'CB', years: [2010, 2022], price: 145_000 },
  { segment: 'watches', brand: 'Tudor', model: 'Black Bay Fifty-Eight', reference: 'M79030N-0001', years: [2018, 2024], price: 3_700 },
  { segment: 'watches', brand: 'A. Lange & Söhne', model: 'Lange 1', reference: '191.032', years: [2015, 2023], price: 38_000 },
  { segment: 'watches', brand: 'Jaeger-LeCoultre', model: 'Reverso Tribute Duoface', reference: 'Q3988482', years: [2018, 2024], price: 11_500 },
  { segment: 'watches', brand: 'IWC', model: 'Portugieser Chronograph', reference: 'IW371605', years: [2020, 2024], price: 7_400 },
  // Art
  { segment: 'art', brand: 'Banksy', model: 'Girl with Balloon', years: [2004, 2004], price: 280_000, medium: 'screenprint (signed)', sizeCm: [50, 70] },
  { segment: 'art', brand: 'Banksy', model: 'Love Is in the Air (Flower Thrower)', years: [2003, 2003], price: 160_000, medium: 'screenprint', sizeCm: [50, 70] },
  { segment: 'art', brand: 'Yayoi Kusama', model: 'Pumpkin (Yellow)', years: [1992, 2000], price: 95_000, medium: 'screenprint', sizeCm: [45, 53] },
  { segment: 'art', brand: 'Andy Warhol', model: 'Marilyn Monroe (F. & S. II.31)', years: [1967, 1967], price: 380_000, medium: 'screenprint', sizeCm: [91, 91] },
  { segment: 'art', brand: 'Keith Haring', model: 'Pop Shop I (set of four screenprints)', years: [1987, 1987], price: 85_000, medium: 'screenprint', sizeCm: [30, 38] },
  { segment: 'art', brand: 'David Hockney', model: 'The Arrival of Spring in Woldgate', years: [2011, 2013], price: 48_000, medium: 'iPad drawing print', sizeCm: [118, 89] },
  { segment: 'art', brand: 'Damien Hirst', model: 'Valium (spot print)', years: [2000, 2000], price: 22_000, medium: 'screenprint', sizeCm: [72, 53] },
  { segment: 'art', brand: 'KAWS', model: 'Companion (Passing Through)', years: [2010, 2010], price: 3_500, medium: 'painted cast vinyl', sizeCm: [20, 37] },
  { segment: 'art', brand: 'Takashi Murakami', model: 'Flowerball (3D) Sexy Pink', years: [2013, 2013], price: 9_500, medium: 'offset lithograph', sizeCm: [71, 71] },
  { segment: 'art', brand: 'Roy Lichtenstein', model: 'Reflections on Brushstrokes', years: [1990, 1990], price: 140_000, medium: 'lithograph and screenprint', sizeCm: [99, 126] },
  { segment: 'art', brand: 'Gerhard Richter', model: 'Abstraktes Bild (P15)', years: [2014, 2014], price: 21_000, medium: 'diasec-mounted giclée', sizeCm: [100, 90] },
  // One-off works: each is a single object, so only one portfolio can hold it.
  { segment: 'art', brand: 'Jean-Michel Basquiat', model: 'Untitled (drawing on paper)', years: [1982, 1982], price: 2_400_000, medium: 'oilstick and crayon on paper', sizeCm: [57, 76], unique: true },
  { segment: 'art', brand: 'Yayoi Kusama', model: 'Infinity Nets (60 x 60 cm painting)', years: [2006, 2006], price: 850_000, medium: 'acrylic on canvas', sizeCm: [60, 60], unique: true },
  { segment: 'art', brand: 'Damien Hirst', model: 'Spot Painting (medium canvas)', years: [2004, 2004], price: 240_000, medium: 'household gloss on canvas', sizeCm: [100, 100], unique: true },
  { segment: 'art', brand: 'Joan Miró', model: 'Le Lézard aux plumes d’or', years: [1971, 1971], price: 6_500, medium: 'lithograph', sizeCm: [33, 43] },
  // Wine (price per case of 12 x 75cl, the unit the service values wine in)
  { segment: 'wine', brand: 'Château Lafite Rothschild', model: 'Lafite Rothschild', years: [2005, 2016], price: 8_800, units: [1, 2, 3] },
  { segment: 'wine', brand: 'Château Margaux', model: 'Margaux', years: [2005, 2016], price: 9_600, units: [1, 2] },
  { segment: 'wine', brand: 'Pétrus', model: 'Pomerol', years: [2005, 2015], price: 48_000, units: [1] },
  { segment: 'wine', brand: 'Domaine de la Romanée-Conti', model: 'La Tâche Grand Cru', years: [2010, 2018], price: 62_000, units: [1] },
  { segment: 'wine', brand: 'Screaming Eagle', model: 'Cabernet Sauvignon', years: [2012, 2019], price: 42_000, units: [1] },
  { segment: 'wine', brand: 'Penfolds', model: 'Grange', years: [2008, 2018], price: 8_400, units: [1, 2] },
  { segment: 'wine', brand: 'Tenuta San Guido', model: 'Sassicaia', years: [2013, 2019], price: 3_900, units: [1, 2, 4] },
  { segment: 'wine', brand: 'Dom Pérignon', model: 'Brut Champagne', years: [2008, 2013], price: 3_300, units: [1, 2, 3] },
  { segment: 'wine', brand: 'Château d’Yquem', model: 'Sauternes', years: [2001, 2015], price: 5_400, units: [1, 2] },
  { segment: 'wine', brand: 'Opus One', model: 'Napa Valley Red', years: [2014, 2019], price: 4_800, units: [1, 2, 3] },
  { segment: 'wine', brand: 'Château Mouton Rothschild', model: 'Mouton Rothschild', years: [2000, 2016], price: 8_900, units: [1, 2] },
  // Sneakers
  { segment: 'sneakers', brand: 'Nike', model: 'Air Jordan 1 Retro High OG Chicago', reference: '555088-101', years: [2015, 2015], price: 1_700, sizes: ['9', '10', '10.5', '11'] },
  { segment: 'sneakers', brand: 'Nike', model: 'Air Jordan 1 x Off-White Chicago', reference: 'AA3834-101', years: [2017, 2017], price: 4_800, sizes: ['9', '9.5', '10', '11'] },
  { segment: 'sneakers', brand: 'Nike', model: 'Dunk Low x Travis Scott', reference: 'CT5053-001', years: [2020, 2020], price: 1_350, sizes: ['8.5', '9', '10'] },
  { segment: 'sneakers', brand: 'Nike', model: 'Air Mag Back to the Future', reference: '417744-001', years: [2016, 2016], price: 36_000, sizes: ['10', '11'] },
  { segment: 'sneakers', brand: 'Nike', model: 'SB Dunk Low Paris', reference: '308269-111', years: [2003, 2003], price: 28_000, sizes: ['9', '10'] },
  { segment: 'sneakers', brand: 'Adidas', model: 'Yeezy Boost 350 V2 Zebra', reference: 'CP9654', years: [2017, 2022], price: 320, sizes: ['9', '10', '11', '12'] },
  { segment: 'sneakers', brand: 'Nike', model: 'Air Jordan 4 Retro x Travis Scott Cactus Jack', reference: '308497-406', years: [2018, 2018], price: 1_150, sizes: ['9', '10', '11'] },
  { segment: 'sneakers', brand: 'New Balance', model: '990v3 x Joe Freshgoods Outside Clothes', reference: 'M990JG3', years: [2022, 2022], price: 420, sizes: ['9', '10'] },
  // Bags
  { segment: 'bags', brand: 'Hermès', model: 'Birkin 30 Togo Gold', reference: 'BIRKIN30-TOGO-GOLD', years: [2016, 2024], price: 26_000 },
  { segment: 'bags', brand: 'Hermès', model: 'Birkin 25 Himalaya Niloticus Crocodile', reference: 'BIRKIN25-HIMALAYA', years: [2014, 2022], price: 310_000 },
  { segment: 'bags', brand: 'Hermès', model: 'Kelly 28 Sellier Epsom', reference: 'KELLY28-EPSOM', years: [2017, 2024], price: 19_500 },
  { segment: 'bags', brand: 'Hermès', model: 'Constance 24 Epsom', reference: 'CONSTANCE24', years: [2018, 2024], price: 14_000 },
  { segment: 'bags', brand: 'Chanel', model: 'Classic Double Flap Medium Caviar', reference: 'A01112', years: [2012, 2024], price: 10_200 },
  { segment: 'bags', brand: 'Chanel', model: 'Boy Bag Old Medium', reference: 'A67086', years: [2014, 2023], price: 5_400 },
  { segment: 'bags', brand: 'Louis Vuitton', model: 'Speedy Bandoulière 30 Monogram', reference: 'M41112', years: [2015, 2024], price: 1_650 },
  { segment: 'bags', brand: 'Dior', model: 'Lady Dior Medium Cannage', reference: 'M0565ONGE', years: [2016, 2024], price: 4_500 },
  // Cards (the grade is part of the card: a PSA 9 and a PSA 10 are different assets)
  { segment: 'cards', brand: 'Pokémon', model: 'Charizard Base Set Holo 1st Edition PSA 9', reference: 'BS4-1ED-PSA9', years: [1999, 1999], price: 42_000 },
  { segment: 'cards', brand: 'Pokémon', model: 'Charizard Base Set Holo Unlimited PSA 8', reference: 'BS4-UNL-PSA8', years: [1999, 1999], price: 1_400 },
  { segment: 'cards', brand: 'Fleer', model: 'Michael Jordan #57 Rookie PSA 9', reference: '57-PSA9', years: [1986, 1986], price: 13_000 },
  { segment: 'cards', brand: 'Topps', model: 'Mickey Mantle #311 PSA 4', reference: '311-PSA4', years: [1952, 1952], price: 210_000 },
  { segment: 'cards', brand: 'Topps', model: 'LeBron James Chrome #111 Rookie PSA 10', years: [2003, 2003], price: 22_000 },
  { segment: 'cards', brand: 'Wizards of the Coast', model: 'Black Lotus Alpha BGS 8', years: [1993, 1993], price: 160_000 },
  { segment: 'cards', brand: 'Playoff', model: 'Contenders Tom Brady Rookie Ticket Auto #144 PSA 8', years: [2000, 2000], price: 65_000 },
  { segment: 'cards', brand: 'Panini', model: 'Luka Doncic Prizm Silver #280 Rookie PSA 10', years: [2018, 2018], price: 4_200 },
  // Jewellery
  { segment: 'jewellery', brand: 'Cartier', model: 'Love Bracelet Yellow Gold', reference: 'B6035517', years: [2015, 2024], price: 6_900 },
  { segment: 'jewellery', brand: 'Cartier', model: 'Panthère de Cartier Ring', reference: 'N4225000', years: [2016, 2023], price: 48_000 },
  { segment: 'jewellery', brand: 'Van Cleef & Arpels', model: 'Vintage Alhambra Necklace 10 Motifs', reference: 'VCARA42100', years: [2014, 2024], price: 13_500 },
  { segment: 'jewellery', brand: 'Tiffany & Co.', model: 'Tiffany Setting Engagement Ring 2ct', reference: 'TIFFANYSETTING2CT', years: [2012, 2023], price: 42_000 },
  { segment: 'jewellery', brand: 'Bulgari', model: 'Serpenti Viper Bracelet', reference: 'BR858797', years: [2017, 2024], price: 5_200 },
  { segment: 'jewellery', brand: 'Harry Winston', model: 'Sunflower Diamond Earrings', reference: 'EADPRFSF', years: [2015, 2022], price: 36_000 },
  { segment: 'jewellery', brand: 'Graff', model: 'Butterfly Silhouette Pendant', reference: 'RGP657', years: [2018, 2024], price: 21_000 },
  // Automobiles (each a single car, known by its chassis)
  { segment: 'automobiles', brand: 'Porsche', model: '911 Carrera 4S (993)', years: [1996, 1998], price: 145_000 },
  { segment: 'automobiles', brand: 'Porsche', model: '911 Carrera RS 2.7', years: [1973, 1973], price: 1_100_000 },
  { segment: 'automobiles', brand: 'Ferrari', model: 'F40', years: [1988, 1992], price: 2_650_000 },
  { segment: 'automobiles', brand: 'Ferrari', model: 'Dino 246 GT', years: [1970, 1974], price: 390_000 },
  { segment: 'automobiles', brand: 'Mercedes-Benz', model: '300 SL Gullwing', years: [1954, 1957], price: 1_450_000 },
  { segment: 'automobiles', brand: 'Jaguar', model: 'E-Type Series 1 3.8 Roadster', years: [1961, 1964], price: 215_000 },
  { segment: 'automobiles', brand: 'Aston Martin', model: 'DB5', years: [1963, 1965], price: 920_000 },
  { segment: 'automobiles', brand: 'Lamborghini', model: 'Miura P400 S', years: [1968, 1971], price: 2_100_000 },
  { segment: 'automobiles', brand: 'BMW', model: 'M1', years: [1979, 1981], price: 610_000 },
  { segment: 'automobiles', brand: 'Land Rover', model: 'Defender 110 Heritage', years: [2012, 2016], price: 68_000 },
  // Spirits (price per bottle)
  { segment: 'spirits', brand: 'The Macallan', model: '25 Year Old Sherry Oak', years: [2018, 2023], price: 2_900, units: [1, 2, 3] },
  { segment: 'spirits', brand: 'The Macallan', model: '18 Year Old Sherry Oak', years: [2019, 2024], price: 420, units: [3, 6] },
  { segment: 'spirits', brand: 'Hibiki', model: '30 Year Old', years: [2015, 2022], price: 8_200, units: [1, 2] },
  { segment: 'spirits', brand: 'Yamazaki', model: '18 Year Old', years: [2017, 2024], price: 620, units: [2, 6] },
  { segment: 'spirits', brand: 'Pappy Van Winkle', model: 'Family Reserve 23 Year Old', years: [2016, 2023], price: 5_100, units: [1, 2] },
  { segment: 'spirits', brand: 'Springbank', model: '21 Year Old', years: [2018, 2023], price: 1_450, units: [1, 3] },
  { segment: 'spirits', brand: 'Rémy Martin', model: 'Louis XIII Cognac', years: [2015, 2024], price: 4_300, units: [1, 2] },
  { segment: 'spirits', brand: 'The Dalmore', model: '25 Year Old', years: [2017, 2023], price: 1_600, units: [1, 2] },
  // Real estate (brand: the building or estate, model: the unit; every property is one of a kind)
  { segment: 'real_estate', brand: 'One Hyde Park', model: 'Apartment B.9.2 London SW1X', price: 18_500_000 },
  { segment: 'real_estate', brand: 'One Hyde Park', model: 'Apartment C.6.1 London SW1X', price: 16_000_000 },
  { segment: 'real_estate', brand: '432 Park Avenue', model: 'Residence 74A New York', price: 14_200_000 },
  { segment: 'real_estate', brand: 'Bosco Verticale', model: 'Torre E Apartment 18 Milan', price: 3_900_000 },
  { segment: 'real_estate', brand: 'Les Parcs de Saint-Tropez', model: 'Villa 12', price: 11_000_000 },
  { segment: 'real_estate', brand: 'Aman Residences Tokyo', model: 'Residence 3805', price: 9_600_000 },
  { segment: 'real_estate', brand: 'Aman Residences Tokyo', model: 'Residence 4102', price: 9_200_000 },
  { segment: 'real_estate', brand: 'Chelsea Barracks', model: 'Garrison Square Townhouse 4', price: 16_800_000 },
  { segment: 'real_estate', brand: 'The Shard Residences', model: 'Apartment 53.2 London SE1', price: 7_000_000 },
];

/** Segments whose every item is one of a kind. */
const UNIQUE_SEGMENTS = new Set(['real_estate', 'automobiles']);

export function isUnique(item: CatalogueItem): boolean {
  return item.unique === true || UNIQUE_SEGMENTS.has(item.segment);
}
