'use client';

import { useState } from 'react';
import { Button } from './button';

type CopyButtonProps = {
  /** Produces the text lazily, so large payloads are only serialised when copied. */
  text: () => string;
  label: string;
};

/** Copies text to the clipboard and says so for a moment; a refused clipboard is reported, not hidden. */
export function CopyButton({ text, label }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <Button size="sm" variant="ghost" onClick={copy}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </Button>
  );
}
