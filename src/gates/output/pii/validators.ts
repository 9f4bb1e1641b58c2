/** Checksums that separate a real identifier from a random run of digits. All pure. */

/** Luhn (ISO/IEC 7812) over the digits of `s` (non-digits ignored). */
export function luhnValid(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  if (digits.length < 12) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The ISO 7064 MOD 11-2 check character for the first 17 digits of a resident ID. */
export function cnIdCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

/** 18-character PRC resident ID: 17 digits + check char (ISO 7064 MOD 11-2) and a real date. */
export function cnResidentIdValid(id: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  return cnIdCheckChar(id.slice(0, 17)) === id[17]!.toUpperCase();
}

/** IBAN: country + 2 check digits + BBAN; valid when the mod-97 remainder is 1 (ISO 13616). */
export function ibanValid(raw: string): boolean {
  const iban = raw.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

/** US SSN structural rules: area not 000/666/9xx, group not 00, serial not 0000. */
export function usSsnValid(raw: string): boolean {
  const d = raw.replace(/\D/g, '');
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  if (area === '000' || area === '666' || area[0] === '9') return false;
  return d.slice(3, 5) !== '00' && d.slice(5) !== '0000';
}

/** Dotted-quad IPv4 with octets 0–255 and no leading zeros. */
export function ipv4Valid(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** IPv6 in full or `::`-compressed form (no zone ids). */
export function ipv6Valid(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || s.split('::').length > 2) return false;
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const groups = (x: string | undefined) => (x ? x.split(':') : []);
  const all = [...groups(head), ...groups(tail)];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return tail === undefined ? all.length === 8 : all.length < 8;
}
