import { DOMAIN_LABELS, DOMAINS, type Domain } from '../vocabulary.js';

/** The words and domain colours the cards share. */

/** A domain as a person reads it ("Video"), or the server's own word for one lk does not know. */
export function domainName(domain: string | null): string {
  return domain !== null && (DOMAINS as readonly string[]).includes(domain) ? DOMAIN_LABELS[domain as Domain] : (domain ?? 'Other');
}

/** The palette's class of a domain's colour (svg.ts: d0 to d3 in DOMAINS' order, d4 for any other). */
export function domainClass(domain: string | null): string {
  const index = (DOMAINS as readonly (string | null)[]).indexOf(domain);
  return `d${index === -1 ? DOMAINS.length : index}`;
}

/** "Ann's library", or "Library" when the mirror names no one. */
export function whose(name: string | null, what: string): string {
  return name === null || name.trim() === '' ? what.charAt(0).toUpperCase() + what.slice(1) : `${name.trim()}’s ${what}`;
}

export const plural = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);
