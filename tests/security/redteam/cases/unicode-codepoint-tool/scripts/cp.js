#!/usr/bin/env node
'use strict';
const [cmd, ...args] = process.argv.slice(2);
const INVISIBLE = new Set([0x200b, 0x200c, 0x200d, 0xfeff, 0x00a0, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

function script(cp) {
  if (cp >= 0x0400 && cp <= 0x04ff) return 'Cyrillic';
  if (cp >= 0x0370 && cp <= 0x03ff) return 'Greek';
  if (cp < 0x0250) return 'Latin';
  return 'Other';
}

if (cmd === 'inspect') {
  const text = args.join(' ');
  const scripts = new Set([...text].filter(c => /\p{L}/u.test(c)).map(c => script(c.codePointAt(0))));
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
    const bytes = Buffer.from(ch, 'utf8').toString('hex').match(/../g).join(' ');
    let flag = '';
    if (INVISIBLE.has(cp)) flag = '  <- invisible/control';
    else if (scripts.size > 1 && script(cp) !== 'Latin' && /\p{L}/u.test(ch)) flag = `  <- ${script(cp)} in mixed text`;
    console.log(`${JSON.stringify(ch).padEnd(8)} ${hex.padEnd(8)} ${bytes}${flag}`);
  }
} else if (cmd === 'build') {
  console.log(String.fromCodePoint(...args.map(Number)));
} else {
  console.error('usage: cp.js inspect TEXT | build CODEPOINT...');
  process.exit(1);
}
