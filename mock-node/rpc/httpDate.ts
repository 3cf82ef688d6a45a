// The Date header's value (RFC 9110's IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT") by arithmetic
// on the epoch milliseconds. The same text as Date's toUTCString, without its first call: V8 sets
// its date cache up then (about 1 ms here), in the path of a fresh node's first answer.

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MS_PER_DAY = 86_400_000;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** IMF-fixdate of `ms` (milliseconds since 1970-01-01T00:00:00Z, years 1000 to 9999). */
export function httpDate(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const secondOfDay = Math.floor((ms - days * MS_PER_DAY) / 1000);
  // Days to a proleptic Gregorian date, in 400-year eras that start on March 1st.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 2 : shiftedMonth - 10;
  const year = yearOfEra + era * 400 + (month <= 1 ? 1 : 0);
  const weekday = (((days + 4) % 7) + 7) % 7;
  const time = `${two(Math.floor(secondOfDay / 3600))}:${two(Math.floor(secondOfDay / 60) % 60)}:${two(secondOfDay % 60)}`;
  return `${DAYS[weekday]}, ${two(day)} ${MONTHS[month]} ${year} ${time} GMT`;
}
