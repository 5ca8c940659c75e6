import { parseTextTable, type TextTableRow } from '../src/text-table';

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

/** The catalogue by segment, one table each (see src/text-table.ts): years "2004-2008" or "2004", sizes in cm "50x70", units and sizes as lists. */
const TABLES: Record<string, string> = {
  watches: `
    brand               | model                              | reference            | years     | price
    Rolex               | Submariner Date                    | 126610LN             | 2020-2024 | 14_500
    Rolex               | Cosmograph Daytona                 | 116500LN             | 2016-2022 | 29_000
    Rolex               | GMT-Master II Pepsi                | 126710BLRO           | 2018-2024 | 21_500
    Rolex               | Datejust 41                        | 126334               | 2017-2024 | 12_000
    Rolex               | Explorer II                        | 226570               | 2021-2024 | 10_500
    Patek Philippe      | Nautilus                           | 5711/1A-010          | 2010-2021 | 115_000
    Patek Philippe      | Aquanaut                           | 5167A-001            | 2008-2023 | 62_000
    Patek Philippe      | Calatrava                          | 5227G-010            | 2013-2023 | 34_000
    Audemars Piguet     | Royal Oak Selfwinding              | 15500ST.OO.1220ST.01 | 2019-2023 | 41_000
    Audemars Piguet     | Royal Oak Jumbo Extra-Thin         | 15202ST.OO.1240ST.01 | 2012-2021 | 105_000
    Omega               | Speedmaster Moonwatch Professional | 310.30.42.50.01.001  | 2021-2025 | 6_900
    Cartier             | Santos de Cartier Large            | WSSA0018             | 2018-2025 | 7_200
    Vacheron Constantin | Overseas Self-Winding              | 4500V/110A-B128      | 2016-2024 | 33_000
    Richard Mille       | RM 011 Felipe Massa                | RM011                | 2012-2020 | 185_000
    F.P. Journe         | Chronomètre Bleu                   | CB                   | 2010-2022 | 145_000
    Tudor               | Black Bay Fifty-Eight              | M79030N-0001         | 2018-2024 | 3_700
    A. Lange & Söhne    | Lange 1                            | 191.032              | 2015-2023 | 38_000
    Jaeger-LeCoultre    | Reverso Tribute Duoface            | Q3988482             | 2018-2024 | 11_500
    IWC                 | Portugieser Chronograph            | IW371605             | 2020-2024 | 7_400
  `,
  // Unique: a one-off work, a single object only one portfolio can hold.
  art: `
    brand                | model                                 | years     | price     | medium                       | size cm | unique
    Banksy               | Girl with Balloon                     | 2004      | 280_000   | screenprint (signed)         | 50x70   |
    Banksy               | Love Is in the Air (Flower Thrower)   | 2003      | 160_000   | screenprint                  | 50x70   |
    Yayoi Kusama         | Pumpkin (Yellow)                      | 1992-2000 | 95_000    | screenprint                  | 45x53   |
    Andy Warhol          | Marilyn Monroe (F. & S. II.31)        | 1967      | 380_000   | screenprint                  | 91x91   |
    Keith Haring         | Pop Shop I (set of four screenprints) | 1987      | 85_000    | screenprint                  | 30x38   |
    David Hockney        | The Arrival of Spring in Woldgate     | 2011-2013 | 48_000    | iPad drawing print           | 118x89  |
    Damien Hirst         | Valium (spot print)                   | 2000      | 22_000    | screenprint                  | 72x53   |
    KAWS                 | Companion (Passing Through)           | 2010      | 3_500     | painted cast vinyl           | 20x37   |
    Takashi Murakami     | Flowerball (3D) Sexy Pink             | 2013      | 9_500     | offset lithograph            | 71x71   |
    Roy Lichtenstein     | Reflections on Brushstrokes           | 1990      | 140_000   | lithograph and screenprint   | 99x126  |
    Gerhard Richter      | Abstraktes Bild (P15)                 | 2014      | 21_000    | diasec-mounted giclée        | 100x90  |
    Jean-Michel Basquiat | Untitled (drawing on paper)           | 1982      | 2_400_000 | oilstick and crayon on paper | 57x76   | yes
    Yayoi Kusama         | Infinity Nets (60 x 60 cm painting)   | 2006      | 850_000   | acrylic on canvas            | 60x60   | yes
    Damien Hirst         | Spot Painting (medium canvas)         | 2004      | 240_000   | household gloss on canvas    | 100x100 | yes
    Joan Miró            | Le Lézard aux plumes d’or             | 1971      | 6_500     | lithograph                   | 33x43   |
  `,
  // Price per case of 12 x 75cl, the unit the service values wine in.
  wine: `
    brand                       | model              | years     | price  | units
    Château Lafite Rothschild   | Lafite Rothschild  | 2005-2016 | 8_800  | 1 2 3
    Château Margaux             | Margaux            | 2005-2016 | 9_600  | 1 2
    Pétrus                      | Pomerol            | 2005-2015 | 48_000 | 1
    Domaine de la Romanée-Conti | La Tâche Grand Cru | 2010-2018 | 62_000 | 1
    Screaming Eagle             | Cabernet Sauvignon | 2012-2019 | 42_000 | 1
    Penfolds                    | Grange             | 2008-2018 | 8_400  | 1 2
    Tenuta San Guido            | Sassicaia          | 2013-2019 | 3_900  | 1 2 4
    Dom Pérignon                | Brut Champagne     | 2008-2013 | 3_300  | 1 2 3
    Château d’Yquem             | Sauternes          | 2001-2015 | 5_400  | 1 2
    Opus One                    | Napa Valley Red    | 2014-2019 | 4_800  | 1 2 3
    Château Mouton Rothschild   | Mouton Rothschild  | 2000-2016 | 8_900  | 1 2
  `,
  sneakers: `
    brand       | model                                         | reference  | years     | price  | sizes
    Nike        | Air Jordan 1 Retro High OG Chicago            | 555088-101 | 2015      | 1_700  | 9 10 10.5 11
    Nike        | Air Jordan 1 x Off-White Chicago              | AA3834-101 | 2017      | 4_800  | 9 9.5 10 11
    Nike        | Dunk Low x Travis Scott                       | CT5053-001 | 2020      | 1_350  | 8.5 9 10
    Nike        | Air Mag Back to the Future                    | 417744-001 | 2016      | 36_000 | 10 11
    Nike        | SB Dunk Low Paris                             | 308269-111 | 2003      | 28_000 | 9 10
    Adidas      | Yeezy Boost 350 V2 Zebra                      | CP9654     | 2017-2022 | 320    | 9 10 11 12
    Nike        | Air Jordan 4 Retro x Travis Scott Cactus Jack | 308497-406 | 2018      | 1_150  | 9 10 11
    New Balance | 990v3 x Joe Freshgoods Outside Clothes        | M990JG3    | 2022      | 420    | 9 10
  `,
  bags: `
    brand         | model                                  | reference          | years     | price
    Hermès        | Birkin 30 Togo Gold                    | BIRKIN30-TOGO-GOLD | 2016-2024 | 26_000
    Hermès        | Birkin 25 Himalaya Niloticus Crocodile | BIRKIN25-HIMALAYA  | 2014-2022 | 310_000
    Hermès        | Kelly 28 Sellier Epsom                 | KELLY28-EPSOM      | 2017-2024 | 19_500
    Hermès        | Constance 24 Epsom                     | CONSTANCE24        | 2018-2024 | 14_000
    Chanel        | Classic Double Flap Medium Caviar      | A01112             | 2012-2024 | 10_200
    Chanel        | Boy Bag Old Medium                     | A67086             | 2014-2023 | 5_400
    Louis Vuitton | Speedy Bandoulière 30 Monogram         | M41112             | 2015-2024 | 1_650
    Dior          | Lady Dior Medium Cannage               | M0565ONGE          | 2016-2024 | 4_500
  `,
  // The grade is part of the card: a PSA 9 and a PSA 10 are different assets.
  cards: `
    brand                | model                                              | reference    | years | price
    Pokémon              | Charizard Base Set Holo 1st Edition PSA 9          | BS4-1ED-PSA9 | 1999  | 42_000
    Pokémon              | Charizard Base Set Holo Unlimited PSA 8            | BS4-UNL-PSA8 | 1999  | 1_400
    Fleer                | Michael Jordan #57 Rookie PSA 9                    | 57-PSA9      | 1986  | 13_000
    Topps                | Mickey Mantle #311 PSA 4                           | 311-PSA4     | 1952  | 210_000
    Topps                | LeBron James Chrome #111 Rookie PSA 10             |              | 2003  | 22_000
    Wizards of the Coast | Black Lotus Alpha BGS 8                            |              | 1993  | 160_000
    Playoff              | Contenders Tom Brady Rookie Ticket Auto #144 PSA 8 |              | 2000  | 65_000
    Panini               | Luka Doncic Prizm Silver #280 Rookie PSA 10        |              | 2018  | 4_200
  `,
  jewellery: `
    brand              | model                               | reference         | years     | price
    Cartier            | Love Bracelet Yellow Gold           | B6035517          | 2015-2024 | 6_900
    Cartier            | Panthère de Cartier Ring            | N4225000          | 2016-2023 | 48_000
    Van Cleef & Arpels | Vintage Alhambra Necklace 10 Motifs | VCARA42100        | 2014-2024 | 13_500
    Tiffany & Co.      | Tiffany Setting Engagement Ring 2ct | TIFFANYSETTING2CT | 2012-2023 | 42_000
    Bulgari            | Serpenti Viper Bracelet             | BR858797          | 2017-2024 | 5_200
    Harry Winston      | Sunflower Diamond Earrings          | EADPRFSF          | 2015-2022 | 36_000
    Graff              | Butterfly Silhouette Pendant        | RGP657            | 2018-2024 | 21_000
  `,
  // Each a single car, known by its chassis.
  automobiles: `
    brand         | model                        | years     | price
    Porsche       | 911 Carrera 4S (993)         | 1996-1998 | 145_000
    Porsche       | 911 Carrera RS 2.7           | 1973      | 1_100_000
    Ferrari       | F40                          | 1988-1992 | 2_650_000
    Ferrari       | Dino 246 GT                  | 1970-1974 | 390_000
    Mercedes-Benz | 300 SL Gullwing              | 1954-1957 | 1_450_000
    Jaguar        | E-Type Series 1 3.8 Roadster | 1961-1964 | 215_000
    Aston Martin  | DB5                          | 1963-1965 | 920_000
    Lamborghini   | Miura P400 S                 | 1968-1971 | 2_100_000
    BMW           | M1                           | 1979-1981 | 610_000
    Land Rover    | Defender 110 Heritage        | 2012-2016 | 68_000
  `,
  // Price per bottle.
  spirits: `
    brand            | model                      | years     | price | units
    The Macallan     | 25 Year Old Sherry Oak     | 2018-2023 | 2_900 | 1 2 3
    The Macallan     | 18 Year Old Sherry Oak     | 2019-2024 | 420   | 3 6
    Hibiki           | 30 Year Old                | 2015-2022 | 8_200 | 1 2
    Yamazaki         | 18 Year Old                | 2017-2024 | 620   | 2 6
    Pappy Van Winkle | Family Reserve 23 Year Old | 2016-2023 | 5_100 | 1 2
    Springbank       | 21 Year Old                | 2018-2023 | 1_450 | 1 3
    Rémy Martin      | Louis XIII Cognac          | 2015-2024 | 4_300 | 1 2
    The Dalmore      | 25 Year Old                | 2017-2023 | 1_600 | 1 2
  `,
  // Brand: the building or estate, model: the unit; every property is one of a kind.
  real_estate: `
    brand                     | model                       | price
    One Hyde Park             | Apartment B.9.2 London SW1X | 18_500_000
    One Hyde Park             | Apartment C.6.1 London SW1X | 16_000_000
    432 Park Avenue           | Residence 74A New York      | 14_200_000
    Bosco Verticale           | Torre E Apartment 18 Milan  | 3_900_000
    Les Parcs de Saint-Tropez | Villa 12                    | 11_000_000
    Aman Residences Tokyo     | Residence 3805              | 9_600_000
    Aman Residences Tokyo     | Residence 4102              | 9_200_000
    Chelsea Barracks          | Garrison Square Townhouse 4 | 16_800_000
    The Shard Residences      | Apartment 53.2 London SE1   | 7_000_000
  `,
};

function item(segment: string, row: TextTableRow): CatalogueItem {
  const fields: CatalogueItem = {
    segment,
    brand: row.text('brand'),
    model: row.text('model'),
    reference: row.given('reference') ? row.text('reference') : undefined,
    years: row.given('years') ? row.range('years', '-') : undefined,
    price: row.number('price'),
    units: row.given('units') ? row.numbers('units') : undefined,
    sizes: row.given('sizes') ? row.words('sizes') : undefined,
    medium: row.given('medium') ? row.text('medium') : undefined,
    sizeCm: row.given('size cm') ? row.range('size cm', 'x') : undefined,
    unique: row.given('unique') ? row.oneOf('unique', ['yes']) === 'yes' : undefined,
  };
  // Fields a row leaves empty are absent, as in an object literal that omits them.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as CatalogueItem;
}

export const CATALOGUE: CatalogueItem[] = Object.entries(TABLES).flatMap(([segment, table]) => parseTextTable(table).map((row) => item(segment, row)));

/** Segments whose every item is one of a kind. */
const UNIQUE_SEGMENTS = new Set(['real_estate', 'automobiles']);

export function isUnique(item: CatalogueItem): boolean {
  return item.unique === true || UNIQUE_SEGMENTS.has(item.segment);
}
