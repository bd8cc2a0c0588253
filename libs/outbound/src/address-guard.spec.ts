import { describe, expect, it } from '@jest/globals';
import { ipLiteral, isBlockedAddress, refusedRange } from './address-guard.js';

// Which addresses a completion URL may reach, however they are spelled. Resolution and
// connection are in address-guard-connect.spec.ts.

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '[2606:4700:4700::1111]',
  // Mapped and well-known NAT64 forms reach exactly the embedded address, which is public here.
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
];

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.31.196.1', 'as112'],
  ['192.52.193.1', 'amt'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['4000::1', 'reserved'],
  // IPv4-mapped: judged by the embedded address.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  // Well-known NAT64: judged by the embedded address.
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'linkLocal'],
  ['64:ff9b::a00:1', 'private'],
  // Refused whatever they embed: local-use NAT64, 6to4, Teredo, IPv4-compatible, IPv4-translated.
  ['64:ff9b:1::808:808', 'rfc6052'],
  ['64:ff9b:1::7f00:1', 'rfc6052'],
  ['2002:7f00:1::', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2001::', 'teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['::ffff:0:7f00:1', 'rfc6145'],
];

describe('refusedRange', () => {
  it.each(PUBLIC)('allows public unicast %s', (address) => {
    expect(refusedRange(address)).toBeNull();
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each(REFUSED)('refuses %s as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
    expect(isBlockedAddress(address)).toBe(true);
  });

  it('reads alternative spellings as the HTTP client dials them', () => {
    for (const spelling of ['2130706433', '0x7f.1', '127.1', '0177.0.0.1', '0x7f000001', '127.0.0.1.']) {
      expect(ipLiteral(spelling)).toBe('127.0.0.1');
      expect(refusedRange(spelling)).toBe('loopback');
    }
    expect(refusedRange('0xa9.0xfe.0xa9.0xfe')).toBe('linkLocal');
    expect(refusedRange('[::ffff:127.0.0.1]')).toBe('loopback');
    expect(refusedRange(new URL('http://2130706433:8080/x').hostname)).toBe('loopback');
    expect(refusedRange(new URL('http://[::127.0.0.1]/x').hostname)).toBe('ipv4Compatible');
    expect(ipLiteral('::127.0.0.1')).toBe('::7f00:1');
  });

  it('refuses what is not one plain IP address: names, an empty host, zone ids, URL tricks', () => {
    for (const host of [
      '',
      '[]',
      'localhost',
      'example.com',
      'fe80::1%eth0',
      '[fe80::1%25eth0]',
      '8.8.8.8/@127.0.0.1',
    ])
      expect(refusedRange(host)).toBe('not an IP address');
    expect(ipLiteral('face.cafe')).toBeNull();
    expect(ipLiteral('[2606:4700:4700::1111]')).toBe('2606:4700:4700::1111');
  });
});
