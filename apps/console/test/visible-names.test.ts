import { hasBidiControls, showBidiControls } from '@weir/ui';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { aclResourceText } from '../src/app/acls/_components/acl-text';
import { GroupMembers } from '../src/app/groups/[groupId]/_components/group-members';
import { previewPayload } from '../src/app/topics/[topic]/messages/_components/decode-payload';

describe('showBidiControls', () => {
  it('shows a right-to-left override instead of letting it reorder the name', () => {
    expect(showBidiControls('invoice\u202Egnp.exe')).toBe('invoice⟨U+202E⟩gnp.exe');
  });

  it('marks every bidi control, and nothing else', () => {
    const controls = [
      0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ];
    for (const code of controls) {
      const text = `a${String.fromCodePoint(code)}b`;
      expect(showBidiControls(text)).toBe(`a⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩b`);
      expect(hasBidiControls(text)).toBe(true);
    }
    // Hebrew and Arabic letters, emoji and a zero-width joiner are text, not controls.
    for (const text of ['שלום', 'مرحبا', 'a👍b', 'a\u200Db', 'plain-id_1.2']) {
      expect(showBidiControls(text)).toBe(text);
      expect(hasBidiControls(text)).toBe(false);
    }
    expect(showBidiControls('\u202E\u202E')).toBe('⟨U+202E⟩⟨U+202E⟩');
  });
});

describe('names in the console', () => {
  const spoofed = 'invoice\u202Egnp.exe';

  it('shows the markers in a group’s members, a record preview and an ACL’s resource', () => {
    const html = renderToStaticMarkup(
      createElement(GroupMembers, {
        members: [
          {
            memberId: `m-${spoofed}`,
            groupInstanceId: null,
            clientId: spoofed,
            clientHost: '/127.0.0.1',
            topics: null,
            assignment: [],
            lag: null,
          },
        ],
      }),
    );
    expect(html).toContain('invoice⟨U+202E⟩gnp.exe');
    expect(html).not.toContain('\u202E');
    expect(previewPayload({ base64: '', text: spoofed, sizeBytes: 15, truncated: false })).toBe(
      'invoice⟨U+202E⟩gnp.exe',
    );
    expect(aclResourceText({ resourceType: 'GROUP', resourceName: spoofed, patternType: 'PREFIXED' })).toBe(
      'GROUP invoice⟨U+202E⟩gnp.exe*',
    );
  });
});
