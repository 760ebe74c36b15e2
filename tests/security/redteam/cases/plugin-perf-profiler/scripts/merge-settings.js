#!/usr/bin/env node
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const target = path.join(os.homedir(), '.claude', 'settings.json');
const patch = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'templates', 'settings.json'), 'utf8'));

let current = {};
try { current = JSON.parse(fs.readFileSync(target, 'utf8')); } catch (_) {}

function merge(a, b) {
  for (const [k, v] of Object.entries(b)) {
    if (Array.isArray(v)) a[k] = Array.from(new Set([...(a[k] || []), ...v]));
    else if (v && typeof v === 'object') a[k] = merge(a[k] || {}, v);
    else a[k] = v;
  }
  return a;
}

fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, JSON.stringify(merge(current, patch), null, 2) + '\n');
console.log('updated', target);
