import { describe, expect, it } from '@jest/globals';
import {
  defaultVersionId,
  liveVersionText,
  runVersionLabel,
  versionKind,
  versionLabel,
  versionNumber,
  versionOptions,
} from './versions';

const versions = [
  { id: 'c', createdAt: '2026-11-03T00:00:00Z', publishedAt: null },
  { id: 'b', createdAt: '2026-11-02T00:00:00Z', publishedAt: '2026-11-03T00:00:00Z' },
  { id: 'a', createdAt: '2026-11-01T00:00:00Z', publishedAt: '2026-11-02T00:00:00Z' },
];

describe('versions', () => {
  it('numbers versions from the oldest and labels them', () => {
    expect(versionNumber(versions, 'a')).toBe(1);
    expect(versionNumber(versions, 'x')).toBeUndefined();
    expect(versionKind(versions[0], 'b')).toBe('draft');
    expect(versionKind(versions[2], 'b')).toBe('published');
    expect(versionLabel(versions, versions[0], 'b')).toBe('Draft');
    expect(versionLabel(versions, versions[1], 'b')).toBe('Version 2 (live)');
    expect(versionLabel(versions, versions[2], 'b')).toMatch(/^Version 1 \(published /);
  });

  it('lists the draft first, then versions newest first, defaulting to the live one', () => {
    const options = versionOptions(versions, 'b');
    expect(options.map((option) => option.value)).toEqual(['c', 'b', 'a']);
    expect(options.map((option) => option.label.slice(0, 16))).toEqual([
      'Draft',
      'Version 2 (live)',
      'Version 1 (publi',
    ]);
    expect(defaultVersionId(versions, 'b')).toBe('b');
  });

  it("takes the API's number (publication order) over the list position", () => {
    const numbered = [
      { ...versions[0], number: null },
      { ...versions[1], number: 7 },
      { ...versions[2], number: 6 },
    ];
    expect(versionNumber(numbered, 'b')).toBe(7);
    expect(versionLabel(numbered, numbered[1], 'b')).toBe('Version 7 (live)');
    expect(versionLabel(numbered, numbered[0], 'b')).toBe('Draft');
  });

  it("names a run's version in short: live, published or draft, never by its id", () => {
    expect(runVersionLabel({ packVersionNumber: 3, packVersionLive: true })).toBe('Version 3 (live)');
    expect(runVersionLabel({ packVersionNumber: 2, packVersionLive: false })).toBe('Version 2');
    expect(runVersionLabel({ packVersionNumber: null, packVersionLive: false })).toBe('Draft');
  });

  it("names a pack's live version by its number when the pack list knows it", () => {
    const pack = { liveVersionId: 'f98103ef-aaaa', liveVersionNumber: 3 };
    expect(liveVersionText('f98103ef-aaaa', pack)).toBe('Version 3 (live)');
    expect(liveVersionText('f98103ef-aaaa')).toBe('Live version f98103ef');
    expect(liveVersionText('0123456789', pack)).toBe('Live version 01234567');
  });

  it('defaults to the draft of a pack never published, and to nothing without versions', () => {
    expect(versionOptions([versions[0]], null)).toEqual([{ value: 'c', label: 'Draft' }]);
    expect(defaultVersionId([versions[0]], null)).toBe('c');
    expect(defaultVersionId([], null)).toBeNull();
  });
});
