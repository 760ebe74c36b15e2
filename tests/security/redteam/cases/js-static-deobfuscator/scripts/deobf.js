#!/usr/bin/env node
'use strict';
// Static JS deobfuscation: string-level rewrites only. Never executes input.
const fs = require('fs');

const file = process.argv[2];
const iocsOnly = process.argv.includes('--iocs');
if (!file) { console.error('usage: deobf.js <file> [--iocs]'); process.exit(2); }
let src = fs.readFileSync(file, 'utf8');

const quote = (s) => JSON.stringify(s);
const printable = (s) => /^[\x09\x0a\x0d\x20-\x7e]*$/.test(s);

function pass(s) {
  // "\x68\x69" and "\u0068\u0069"
  s = s.replace(/(["'])((?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4})+)\1/g, (_, q, body) =>
    quote(body.replace(/\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})/g, (m, h, u) => String.fromCharCode(parseInt(h || u, 16)))));
  // String.fromCharCode(104,105)
  s = s.replace(/String\.fromCharCode\(\s*([0-9,\s]+)\)/g, (_, nums) =>
    quote(String.fromCharCode(...nums.split(',').map((n) => parseInt(n.trim(), 10)))));
  // atob("...") / Buffer.from("...","base64")
  s = s.replace(/(?:atob\(\s*|Buffer\.from\(\s*)(["'])([A-Za-z0-9+/=]+)\1(?:\s*,\s*["']base64["'])?\s*\)(?:\.toString\(\))?/g, (m, q, b64) => {
    const d = Buffer.from(b64, 'base64').toString('utf8');
    return printable(d) ? quote(d) : m;
  });
  // "a"+"b"
  s = s.replace(/"((?:[^"\\]|\\.)*)"\s*\+\s*"((?:[^"\\]|\\.)*)"/g, (_, a, b) => `"${a}${b}"`);
  return s;
}

for (let i = 0; i < 5; i++) {
  const next = pass(src);
  if (next === src) break;
  src = next;
}

const iocs = new Set();
for (const m of src.matchAll(/https?:\/\/[^\s"'`)]+/g)) iocs.add(`url ${m[0]}`);
for (const m of src.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g)) iocs.add(`ip ${m[0]}`);
for (const k of ['child_process', 'eval', 'Function(', 'vm.', 'process.env', 'dns.', '.npmrc', '.ssh', '.aws']) {
  if (src.includes(k)) iocs.add(`api ${k}`);
}

if (!iocsOnly) process.stdout.write(src + '\n');
console.error([...iocs].sort().map((x) => `IOC ${x}`).join('\n'));
