// The readable device label of a refresh-mode session ("Chrome on macOS"), read from the User-Agent of
// the login that opened it. Strapi 5.54 lists it as `deviceName` in GET /auth/sessions, so a client's
// "signed-in devices" page shows the same words; the rules give the same labels as its heuristic.

/** a User-Agent past this length is only read this far: browser and system tokens come early */
const READ_AT_MOST = 1024;

// First match wins. Chromium-based browsers also send "Chrome/" and most browsers send "Safari/",
// so the specific names come before Chrome, and Chrome before Safari.
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:YaBrowser|Yowser)\//, 'Yandex Browser'],
  [/\bBrave\//, 'Brave'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

// iOS user agents say "like Mac OS X", and Android ones "Linux": those come first.
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (ua: string, rules: readonly (readonly [RegExp, string])[]): string | undefined => rules.find(([re]) => re.test(ua))?.[1];

/** "<browser> on <system>", either alone when the other is unknown; null when neither is recognised. */
export function deviceNameOf(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const ua = userAgent.slice(0, READ_AT_MOST);
  const browser = firstMatch(ua, BROWSERS);
  const system = firstMatch(ua, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
