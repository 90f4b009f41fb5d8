import type { X509Certificate } from 'node:crypto';

/** How a client certificate becomes a principal (a minimal ssl.principal.mapping.rules). */
export type PrincipalMapping = 'dn' | 'cn';

/**
 * The principal of a verified client certificate, as Kafka's default SSL principal builder names it:
 * `User:` + the subject DN in RFC 2253 form (`User:CN=alice,OU=eng,O=Acme`), or, with `cn`, just the
 * common name (`User:alice`). A certificate without a CN maps to its DN even under `cn`, so two
 * such certificates never share a principal by accident.
 */
export function certificatePrincipal(certificate: X509Certificate, mapping: PrincipalMapping): string {
  const rdns = subjectRdns(certificate.subject);
  if (mapping === 'cn') {
    const cn = rdns.find((rdn) => rdn.startsWith('CN='));
    if (cn !== undefined) return `User:${unescapeValue(cn.slice(3))}`;
  }
  return `User:${rdns.join(',')}`;
}

/**
 * Node prints a subject one RDN per line, most significant first, values already escaped per
 * RFC 2253 (OpenSSL's ASN1_STRFLGS_ESC_2253, control characters as \XX so a line never breaks
 * inside a value) and multi-valued RDNs joined by " + ". RFC 2253 lists the RDNs the other way
 * round, least significant (the CN) first, and joins multi-valued ones with a bare "+".
 */
function subjectRdns(subject: string): string[] {
  return subject
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split(' + ').join('+'))
    .reverse();
}

/** `alice\, jr` → `alice, jr`: a CN principal carries the plain value. */
function unescapeValue(value: string): string {
  return value.replace(/\\([0-9A-Fa-f]{2}|.)/g, (_, escaped: string) =>
    escaped.length === 2 ? String.fromCharCode(Number.parseInt(escaped, 16)) : escaped,
  );
}
