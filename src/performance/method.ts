/**
 * The time-weighted return's method in the reader's words, for every place a report states it
 * (one text beside the maths, so no format can describe another method).
 */
export const TIME_WEIGHTED_METHOD =
  'Time-weighted: the portfolio\'s growth month by month, so money put in or taken out does not count. ' +
  'A month is split on any day when purchases less sales come to more than 10 % of the portfolio\'s book value ' +
  '(its value at the last month-end plus purchases at cost less sales at proceeds since), and the parts are linked. ' +
  'The valuation service values holdings as of today, not as of a past date, so on such a day the book value stands for the portfolio\'s value, ' +
  'and the market\'s movement within a month falls in its last part.';
