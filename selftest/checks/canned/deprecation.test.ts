import { describe } from 'vitest';
import { FAMILIES } from '../../../src/checks/registry.ts';
import { errorBody, exchange, failed, pet } from '../helpers.ts';
import { cannedTests, type FamilyTable } from './canned.ts';

const REMOVAL = new Date('2030-12-05T00:00:00Z');
const AFTER_REMOVAL = new Date('2031-01-10T00:00:00Z');
const REMOVAL_DAY_BEGINS = new Date('2030-12-04T10:00:00Z');
const JUST_BEFORE_IT = new Date(REMOVAL_DAY_BEGINS.getTime() - 1);
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const DEPRECATION_HEADERS = { deprecation: '@1735689600', sunset: SUNSET, link: '</v1/pets>; rel="successor-version"' };

const TABLE: FamilyTable<typeof FAMILIES.deprecation> = {
  'deprecation.operational': {
    ctx: { removal: REMOVAL, id: '7' },
    pass: [{ why: 'a 200 before removal', ex: exchange(200, pet(7), DEPRECATION_HEADERS) }],
    fail: [
      { why: 'a 404 for a listed id before removal', ex: exchange(404, errorBody(404)), actual: /^404/ },
      { why: 'a 410 before removal', ex: exchange(410, errorBody(410)) },
      { why: 'a 410 at 09:59:59.999Z on 4 December 2030, still 4 December everywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
    ],
    na: [
      { why: 'a 404 after removal', ex: exchange(404, errorBody(404)), now: AFTER_REMOVAL },
      { why: 'a 410 at 10:00Z on 4 December 2030, when 5 December begins at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS },
      { why: 'a 410 at 00:00Z on 5 December 2030', ex: exchange(410, errorBody(410)), now: REMOVAL },
    ],
  },
  'deprecation.headers-well-formed': {
    ctx: {},
    pass: [
      { why: 'Deprecation @1735689600, Sunset IMF-fixdate, Link successor-version', ex: exchange(200, pet(7), DEPRECATION_HEADERS) },
      { why: 'no deprecation headers at all', ex: exchange(200, pet(7)) },
      { why: 'Sunset in the obsolete RFC 850 form', ex: exchange(200, pet(7), { sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' }) },
      { why: 'Sunset in the asctime form', ex: exchange(200, pet(7), { sunset: 'Thu Dec  5 00:00:00 2030' }) },
      { why: 'Deprecation: true (the drafts before RFC 9745)', ex: exchange(200, pet(7), { deprecation: 'true' }) },
      { why: 'Deprecation as an HTTP-date (an earlier draft)', ex: exchange(200, pet(7), { deprecation: 'Sun, 01 Jun 2025 00:00:00 GMT' }) },
      { why: 'two link-values', ex: exchange(200, pet(7), { link: '</v1/pets>; rel="successor-version", <https://docs.example/deprecation>; rel="deprecation"; type="text/html"' }) },
      { why: 'Link with empty list elements (RFC 9110 §5.6.1.2)', ex: exchange(200, pet(7), { link: ', </v1/pets>; rel="successor-version",, <https://docs.example/d>; rel="deprecation", ' }) },
      { why: 'Deprecation with a parameter (an RFC 9651 Item)', ex: exchange(200, pet(7), { deprecation: '@1735689600;note="see docs"' }) },
      {
        why: 'Deprecation with parameters of every bare-item type',
        ex: exchange(200, pet(7), { deprecation: '@1735689600; a=-1;b;c=?1;d=tok/x:y;e=1.5;f=:aGk=:;g=@5;h=%"caf%c3%a9";i="q\\"d"' }),
      },
    ],
    fail: [
      { why: 'Deprecation: yes please', ex: exchange(200, pet(7), { deprecation: 'yes please' }), actual: /Deprecation: yes please/ },
      { why: 'Deprecation: 2030-12-05 (no HTTP-date)', ex: exchange(200, pet(7), { deprecation: '2030-12-05' }) },
      { why: 'Sunset: 2030-12-05', ex: exchange(200, pet(7), { sunset: '2030-12-05' }), actual: /Sunset: 2030-12-05/ },
      { why: 'Link without angle brackets', ex: exchange(200, pet(7), { link: '/v1/pets; rel="successor-version"' }), actual: /Link/ },
      { why: 'Deprecation with an upper-case parameter key', ex: exchange(200, pet(7), { deprecation: '@1735689600;Note=1' }), actual: /Deprecation/ },
      { why: 'Deprecation with a parameter without a value after =', ex: exchange(200, pet(7), { deprecation: '@1735689600;note=' }) },
      { why: 'Deprecation with white space before the ;', ex: exchange(200, pet(7), { deprecation: '@1735689600 ;note=1' }) },
      { why: 'Link with a bad element among empty ones', ex: exchange(200, pet(7), { link: ',, /v1/pets; rel="successor-version",' }), actual: /Link/ },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'deprecation.sunset-not-early': {
    ctx: { removal: REMOVAL },
    pass: [
      { why: 'Sunset on 5 Dec 2030', ex: exchange(200, pet(7), { sunset: SUNSET }) },
      { why: 'Sunset in 2031', ex: exchange(200, pet(7), { sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' }) },
      { why: 'Sunset at midnight of 5 December in CET', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 23:00:00 GMT' }) },
      { why: 'Sunset at the start of 5 December at UTC+14', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 10:00:00 GMT' }) },
    ],
    fail: [
      { why: 'Sunset on 1 Dec 2030', ex: exchange(200, pet(7), { sunset: 'Sun, 01 Dec 2030 00:00:00 GMT' }), actual: /01 Dec 2030/ },
      { why: 'Sunset before 5 December began anywhere (UTC+14)', ex: exchange(200, pet(7), { sunset: 'Wed, 04 Dec 2030 09:59:59 GMT' }) },
    ],
    na: [
      { why: 'no Sunset', ex: exchange(200, pet(7)) },
      { why: 'a Sunset that is no HTTP-date', ex: exchange(200, pet(7), { sunset: '2030-12-01' }) },
    ],
  },
  'deprecation.signals': {
    ctx: {},
    observe: [
      { why: 'all three', ex: exchange(200, pet(7), DEPRECATION_HEADERS), value: 'deprecation, sunset, link' },
      { why: 'Sunset only', ex: exchange(200, pet(7), { sunset: SUNSET }), value: 'sunset' },
      { why: 'none', ex: exchange(200, pet(7)), value: 'none' },
    ],
    na: [{ why: 'a transport failure', ex: failed() }],
  },
  'deprecation.after-removal': {
    ctx: { removal: REMOVAL },
    observe: [
      { why: 'a 200 after removal', ex: exchange(200, pet(7)), now: AFTER_REMOVAL, value: 'still served' },
      { why: 'a 410 after removal', ex: exchange(410, errorBody(410)), now: AFTER_REMOVAL, value: 'answered 410' },
      { why: 'a 404 on the removal date', ex: exchange(404, errorBody(404)), now: REMOVAL, value: 'answered 404' },
      { why: 'a 410 once 5 December has begun at UTC+14', ex: exchange(410, errorBody(410)), now: REMOVAL_DAY_BEGINS, value: 'answered 410' },
    ],
    na: [
      { why: 'a 200 before removal', ex: exchange(200, pet(7)) },
      { why: 'a 410 a millisecond before 5 December begins anywhere', ex: exchange(410, errorBody(410)), now: JUST_BEFORE_IT },
      { why: 'a transport failure after removal', ex: failed(), now: AFTER_REMOVAL },
    ],
  },
};

describe('the deprecation checks on canned exchanges', () => {
  cannedTests(FAMILIES.deprecation, TABLE);
});
